"""The fault suite: people play Bluff and Liar Game tables through nginx on three
workers while a fault is injected (fault_scenarios.py: PostgreSQL restarted fast or
down 10 s, Redis restarted, the owner of tables SIGKILLed, SIGTERMed or SIGSTOPped past
its lease, a worker cut off from PostgreSQL). Whatever the fault: nothing a client got
acknowledged is lost or made twice, every game finishes, every client's view agrees
with the log, and the only errors clients see are the retryable ones PROTOCOL.md
names; games resume within seconds of the fault's end.

The quick faults run in `make test`; the slow ones (marked ``slow_faults``) in
`make test-faults`. benchmarks/faults.py prints the same scenarios' figures.
"""

from __future__ import annotations

import pytest
from fault_scenarios import FAULTS, RESUME_S, Fault, run


def _marked(fault: Fault) -> object:
    return pytest.param(fault, id=fault.id, marks=[pytest.mark.slow_faults] if fault.slow
                        else [])


@pytest.mark.timeout(420)
@pytest.mark.parametrize("fault", [_marked(f) for f in FAULTS])
def test_games_survive(pg_server: str, fault: Fault) -> None:
    outcome = run(pg_server, fault, f"faults_{fault.id.replace('-', '_')}")
    problems = outcome.problems(RESUME_S)
    assert not problems, "; ".join([*problems, f"pauses {outcome.spread(outcome.pauses)} s",
                                    f"{outcome.reconnects} reconnects"])
