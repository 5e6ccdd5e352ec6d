"""A Liar table with ``hand_size: 10**30`` was accepted and played as ``deal_all``: the
server now refuses at its tables a hand no table can be dealt, and says why. (The rules
core keeps RULES.md's reading: any hand_size >= 1 is valid, L3 deals the whole deck.)"""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_an_undealable_hand_size_is_refused_with_the_rule(client: TestClient) -> None:
    for size in (10**30, 27):
        r = client.post("/api/tables", json={"game": "liar", "seats": [{"bot": None}] * 2,
                                             "rules": {"hand_size": size}})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_rules"
        assert "hand_size is at most 26 at this server's tables (L3" in r.json()["message"]
    ok = client.post("/api/tables", json={"game": "liar", "seats": [{"bot": None}] * 2,
                                          "rules": {"hand_size": 26}})
    assert ok.status_code == 201, ok.text


def test_an_option_without_the_one_it_needs_names_both(client: TestClient) -> None:
    """A page can say which box to tick: the refusal's params name the two options."""
    for option, needs, codes in (("revolution", "multi", {"O2", "O1"}),
                                 ("six_up", "jack_back", {"O5", "O4"})):
        r = client.post("/api/tables", json={"game": "liar", "seats": [{"bot": None}] * 2,
                                             "rules": {option: True}})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_rules"
        params = r.json()["params"]
        assert (params["option"], params["needs"]) == (option, needs)
        assert set(params["rules"]) == codes  # the rule codes the message cites, as links
        assert f"{option} needs {needs}" in r.json()["message"]
