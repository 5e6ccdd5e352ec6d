"""Fair deals in a cluster: the commitment is published to the seats and spectators on
every worker, contributions sent to followers are relayed to the table's owner and make
the deal, and until the game's end no frame on any worker holds the secret."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from cluster_helpers import Cluster, cluster
from pg_helpers import new_database
from test_cluster import Person, open_table, play, record_of, start
from test_cluster import sockets as sockets  # (its autouse fixture: sockets closed after)
from waits import Deadline

from usotsuki.fairness import verify_record


@pytest.fixture(scope="module")
def fair_stack(pg_server: str) -> Iterator[Cluster]:
    db = new_database(pg_server, "usotsuki_cluster_fairness")
    with cluster(db, 2, ["--bot-delay", "0.05", "--lease-seconds", "1.5",
                         "--contribute-seconds", "600"]) as c:
        yield c


class Recorded(Person):
    """A person (or, without a token, a spectator) keeping every message it was sent."""

    def __init__(self, stack: Cluster, table_id: str, token: str, port: int) -> None:
        self.seen: list[dict[str, Any]] = []
        super().__init__(stack, table_id, token, port)

    def recv(self, deadline: Deadline | None = None) -> dict[str, Any]:
        message = super().recv(deadline)
        self.seen.append(message)
        return message


def test_contributions_through_followers_and_no_secret_before_the_end(
        fair_stack: Cluster) -> None:
    table_id, tokens = open_table(fair_stack, [None, None, None])
    # People on both workers, so one of them follows the table and relays; a spectator.
    first, second = fair_stack.workers
    people = [Recorded(fair_stack, table_id, t, w.port)
              for t, w in zip(tokens, [first, second, second], strict=True)]
    watcher = Recorded(fair_stack, table_id, "", second.port)
    start(fair_stack, table_id, tokens[0], people)
    values = [f"{seat:02x}" * 32 for seat in range(3)]
    for p in people:  # each told the commitment, and asked for its contribution
        assert p.state["fairness"]["collecting"] and p.seat in p.state["fairness"]["waiting"]
        p.ws.send(json.dumps({"type": "contribute", "value": values[p.seat]}))
    deadline = Deadline("the deal after the three contributions", 120)
    for p in [*people, watcher]:
        while p.state.get("fairness") is None or p.state["fairness"]["collecting"]:
            p.recv(deadline)
    assert play(people, seconds=120) > 0
    record = record_of(fair_stack, table_id)
    fair = record["fairness"]
    assert fair["contributions"] == [{"seat": s, "value": v} for s, v in enumerate(values)]
    assert verify_record(record) is None
    for p in [*people, watcher]:
        while not any(m["type"] == "event" and m["event"]["type"] == "revealed"
                      for m in p.seen):
            p.recv(deadline)
        texts = [json.dumps(m) for m in p.seen]
        revealed = next(i for i, m in enumerate(p.seen)
                        if m["type"] == "event" and m["event"]["type"] == "revealed")
        assert not any(fair["secret"] in t for t in texts[:revealed]), p.seat
        assert fair["secret"] in texts[revealed]
        assert any(fair["commitment"] in t for t in texts[:revealed])


def test_a_new_owner_carries_on_a_collection_its_dead_owner_began(fair_stack: Cluster) -> None:
    """(Last here: it kills a worker.) A contribution committed by the owner, which then
    dies; the worker taking the table over folds it and waits for the others."""
    table_id, tokens = open_table(fair_stack, [None, None, None])
    owner = fair_stack.owner(table_id)
    assert owner is not None
    victim = fair_stack.worker(owner[0])
    other = next(w for w in fair_stack.workers if w is not victim)
    people = [Recorded(fair_stack, table_id, t, other.port) for t in tokens]
    start(fair_stack, table_id, tokens[0], people)
    values = [f"{seat + 7:02x}" * 32 for seat in range(3)]
    people[0].ws.send(json.dumps({"type": "contribute", "value": values[0]}))
    deadline = Deadline("the first contribution, then the new owner", 120)
    while 0 not in people[1].state["fairness"]["given"]:
        people[1].recv(deadline)
    victim.kill()
    while (holder := fair_stack.owner(table_id)) is None or holder[0] == victim.name:
        time.sleep(min(0.05, deadline.left()))
    for p in people[1:]:
        p.ws.send(json.dumps({"type": "contribute", "value": values[p.seat]}))
    for p in people:
        while p.state["fairness"]["collecting"]:
            p.recv(deadline)
    assert play(people, seconds=120) > 0
    record = record_of(fair_stack, table_id)
    assert record["fairness"]["contributions"] == [
        {"seat": s, "value": v} for s, v in enumerate(values)]
    assert verify_record(record) is None
