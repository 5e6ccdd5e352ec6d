"""Run a record through both readings, the core and ``liar_reference``, step by step.

A step is the Part 5 view (``finished``, ``standings``, ``to_move``, ``legal``, ``games``)
as if the record stopped there: at each game's start (after O7's automatic gifts) and
after each action. :func:`random_record` writes records by random play of the reference.
"""

from __future__ import annotations

import json
import random
from typing import Any

import liar_reference as ref

from usotsuki.liar.legal import legal_summary
from usotsuki.liar.record import game_report, replay, replay_report
from usotsuki.liar.state import LiarState

GAME_KEYS = ("doubts", "hand_sizes", "stock_size", "field_size", "order", "standings")
DOUBT_KEYS = ("doubter", "doubted", "truthful", "drawer", "drawn")


def part5_game(state: LiarState) -> dict[str, Any]:
    got = game_report(state)
    out = {k: got[k] for k in GAME_KEYS}
    out["doubts"] = [{k: d[k] for k in DOUBT_KEYS} for d in got["doubts"]]
    return out


def _actions(entry: Any) -> list[Any]:
    actions = entry.get("actions") if isinstance(entry, dict) else None
    return actions if isinstance(actions, list) else []


def core_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The core's view after every step (game starts, then actions, in replay order)."""
    entries = record.get("games")
    places = [(g, i) for g, entry in enumerate(entries if isinstance(entries, list) else [])
              for i in range(-1, len(_actions(entry)))]
    states: list[LiarState] = []
    steps: list[dict[str, Any]] = []
    finals: list[LiarState] = []

    def on_state(state: LiarState) -> None:
        game, index = places[len(states)]
        if index == -1 and states:
            finals.append(states[-1])
        states.append(state)
        over = state.is_over
        steps.append({
            "finished": over,
            "standings": ([list(p) for p in state.standings]
                          if over and state.standings is not None else None),
            "to_move": None if over else state.to_move,
            "legal": None if over else legal_summary(state).to_json(),
            "games": [part5_game(s) for s in (*finals, state)],
            "cards": ([sorted(str(c) for c in h) for h in state.hands],
                      [str(c) for c in state.stock]),
        })

    replay(record, on_state)
    return steps


def ref_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The reference's steps, with every card's place (hands as sets, the stock in order)
    beyond Part 5: the L8 shuffle and who drew what must agree too."""
    steps: list[dict[str, Any]] = []
    ref.replay(record, steps.append)
    return steps


def part5(report: dict[str, Any]) -> dict[str, Any]:
    """The keys Part 5 names (error without its free-text message)."""
    out = {k: report.get(k) for k in ("game", "ok", "finished", "standings", "to_move",
                                      "legal")}
    error = report.get("error")
    out["error"] = None if error is None else {k: error.get(k)
                                               for k in ("round", "index", "action")}
    out["games"] = [{**{k: g[k] for k in GAME_KEYS},
                     "doubts": [{k: d[k] for k in DOUBT_KEYS} for d in g["doubts"]]}
                    for g in report.get("games", [])]
    return out


def disagreement(record: dict[str, Any]) -> str | None:
    """None when both readings agree at every step and at the end; else where they part."""
    mine, core = ref_steps(record), core_steps(record)
    for number, (a, b) in enumerate(zip(mine, core, strict=False)):
        if a != b:
            keys = [k for k in a if a[k] != b.get(k)]
            return (f"step {number}: differs in {keys}\n reference {[a[k] for k in keys]}"
                    f"\n core      {[b[k] for k in keys]}")
    if len(mine) != len(core):
        return f"reference took {len(mine)} steps, core {len(core)}"
    want, got = ref.replay(record), part5(replay_report(record))
    if want != got:
        keys = [k for k in want if want[k] != got.get(k)]
        return f"final report differs in {keys}: reference {want}\n core {got}"
    return None


# -- random records ---------------------------------------------------------------------------


def random_options(rng: random.Random) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for name in ("multi", "eight_cut", "jack_back", "binding", "classes", "deal_all"):
        if rng.random() < 0.5:
            opts[name] = rng.random() < 0.7
    if opts.get("multi") and rng.random() < 0.6:
        opts["revolution"] = True
    if opts.get("jack_back") and rng.random() < 0.6:
        opts["six_up"] = True
    if rng.random() < 0.4:
        opts["final_doubt"] = rng.random() < 0.5
    if rng.random() < 0.6:
        opts["hand_size"] = rng.choice([1, 2, 3, 4, 5, 6, 7, 9, 12, 20])
    if rng.random() < 0.4:
        opts["turn_limit"] = rng.choice([None, 1, 2, 3, 5, 10, 30, 80])
    return opts


def random_deal(rng: random.Random, n: int, opts: dict[str, Any]
                ) -> tuple[list[list[str]], list[str]]:
    deck = [r + s for r in ref.RATES for s in ref.SUIT_ORDER]
    rng.shuffle(deck)
    sizes = ref.dealt_sizes(n, {**ref.OPTIONS, **opts})
    hands, at = [], 0
    for size in sizes:
        hands.append(deck[at:at + size])
        at += size
    return hands, deck[at:]


def random_action(rng: random.Random, game: ref.Game, style: dict[str, float]) -> str:
    legal = game.legal()
    assert legal is not None
    hand = game.hands[game.to_move]
    if legal["give"]:
        giver, _, count = game.gives[0]
        return "give " + " ".join(rng.sample(game.hands[giver], count))
    if legal["accept"]:
        return rng.choice(["accept", "doubt"])
    choices = []
    if legal["play"] is not None:
        choices.append(("play", style["play"]))
    if legal["pass"]:
        choices.append(("pass", style["pass"]))
    if legal["doubt"]:
        choices.append(("doubt", style["doubt"]))
    kind = rng.choices([c for c, _ in choices], [w for _, w in choices])[0]
    if kind != "play":
        return kind
    counts = legal["play"]["counts"]
    count = min(counts) if rng.random() < 0.5 else rng.choice(counts)
    rate = rng.choice(legal["play"]["rates"])
    matching = [c for c in hand if ref.rate_of(c) == rate]
    if rng.random() < style["truth"] and len(matching) >= count:
        cards = rng.sample(matching, count)
    else:
        cards = rng.sample(hand, count)
    written = [c.lower() if rng.random() < 0.05 else c for c in cards]  # Part 3
    return f"play {' '.join(written)} as {rate}"


ODD_ACTIONS = ["pass", "doubt", "accept", "give 3S", "play 3S as 3", "play 2C 2C as 2",
               "", "play as 3", "play AS as 1", 5, None, ["pass"], "pass pass", "Doubt"]


def random_record(rng: random.Random, max_actions: int = 300, players: int | None = None,
                  options: dict[str, Any] | None = None,
                  style: dict[str, float] | None = None) -> dict[str, Any]:
    """Random play of the reference; ``players``, ``options`` and ``style`` (weights of
    play, pass, doubt and the chance of a truthful play) are random unless given."""
    n = players if players is not None else rng.randint(2, 8)
    opts = options if options is not None else random_options(rng)
    seed: int | str = rng.choice([rng.randrange(-10**6, 10**12), f"s{rng.randrange(999)}"])
    style = style or {"play": rng.uniform(0.2, 1), "pass": rng.uniform(0.1, 1),
                      "doubt": rng.uniform(0.02, 0.6), "truth": rng.uniform(0, 1)}
    full = {**ref.OPTIONS, **opts}
    flush_rng = random.Random(seed)
    games: list[dict[str, Any]] = []
    before: ref.Game | None = None
    for _ in range(rng.randint(1, 4) if full["classes"] else 1):
        hands, stock = random_deal(rng, n, opts)
        game = ref.start_game(n, full, flush_rng, hands, stock, before)
        actions: list[Any] = []
        while not game.over and len(actions) < max_actions:
            action = random_action(rng, game, style)
            game.act(action)
            actions.append(action)
        games.append({"hands": hands, "stock": stock, "actions": actions})
        if not game.over:
            break
        before = game
    if rng.random() < 0.15:  # a last action that may well be illegal
        games[-1]["actions"].append(rng.choice(ODD_ACTIONS))
    record: dict[str, Any] = {"game": "liar", "players": n, "rules": opts, "games": games}
    if not (seed == 0 and rng.random() < 0.5):
        record["seed"] = seed
    return record


def core_random_record(rng: random.Random, max_actions: int = 300) -> dict[str, Any]:
    """A record written by the core's own ``random_action`` (what the core thinks legal),
    so that actions the reference would never choose get replayed by both."""
    from usotsuki.cards import parse_card
    from usotsuki.liar import LiarRules, apply, format_action, new_game, next_game
    from usotsuki.liar import random_action as core_action

    n = rng.randint(2, 8)
    opts = random_options(rng)
    seed = rng.randrange(10**9)
    rules = LiarRules(players=n, **opts)
    games: list[dict[str, Any]] = []
    state = None
    for _ in range(rng.randint(1, 3) if rules.classes else 1):
        hands, stock = random_deal(rng, n, opts)
        cards = [[parse_card(c) for c in h] for h in hands]
        deck = [parse_card(c) for c in stock]
        state = (new_game(rules, cards, deck, seed) if state is None
                 else next_game(state, cards, deck).state)
        actions: list[Any] = []
        while not state.is_over and len(actions) < max_actions:
            action = core_action(state, rng)
            state = apply(state, action).state
            actions.append(format_action(action))
        games.append({"hands": hands, "stock": stock, "actions": actions})
        if not state.is_over:
            break
    return {"game": "liar", "players": n, "rules": opts, "seed": seed, "games": games}


# -- faults (Part 4, Part 5) ----------------------------------------------------------------

RECORD_FAULTS: list[tuple[str, Any]] = [
    ("rules", {"bogus": True}), ("rules", {"revolution": True}), ("rules", {"six_up": True}),
    ("rules", {"multi": 1}), ("rules", {"hand_size": 0}), ("rules", {"hand_size": 9.0}),
    ("rules", {"turn_limit": 0}), ("rules", {"turn_limit": True}), ("rules", []),
    ("seed", None), ("seed", 1.5), ("seed", True), ("seed", [1]), ("seed", {}),
    ("players", 1), ("players", 9), ("players", True), ("players", "4"), ("players", 4.0),
    ("players", ["a", 2]), ("games", []), ("games", {}), ("game", "Liar"),
]


def mutate(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    """One fault put into a (copy of a) valid record, at record, deal or action level."""
    rec: dict[str, Any] = json.loads(json.dumps(record))
    games = rec["games"]
    kind = rng.randrange(12)
    if kind == 0:
        key, value = rng.choice(RECORD_FAULTS)
        if key == "rules" and isinstance(value, dict):
            rec["rules"] = {**rec.get("rules", {}), **value}
        else:
            rec[key] = value
    elif kind == 1:
        if rng.random() < 0.5:
            del rec[rng.choice(["games", "players"])]
        else:
            del games[0][rng.choice(["hands", "stock", "actions"])]
    elif kind == 2:  # a card twice, a card missing, a bad token, a hand too long
        game = rng.choice(games)
        hand = rng.choice(game["hands"])
        choice = rng.randrange(4)
        if choice == 0 and game["stock"]:
            game["stock"][0] = hand[0]
        elif choice == 1:
            hand.append(game["stock"].pop() if game["stock"] else "3S")
        elif choice == 2:
            hand[0] = rng.choice(["1S", "3X", "", 7, None, "3 S"])
        else:
            game["hands"].append([])
    elif kind == 3:  # another game after the last
        games.append(json.loads(json.dumps(games[0])))
    elif kind == 4:  # the last game cut short, then another game
        if games[-1]["actions"]:
            games[-1]["actions"] = games[-1]["actions"][:rng.randrange(len(games[-1]["actions"]))]
        games.append(json.loads(json.dumps(games[0])))
    else:  # an odd action somewhere
        game = rng.choice(games)
        at = rng.randint(0, len(game["actions"]))
        game["actions"].insert(at, rng.choice(ODD_ACTIONS + ["give 2S 2H", "play 3S 4S as 5",
                                                             "play KS as 3", "accept"]))
    return rec
