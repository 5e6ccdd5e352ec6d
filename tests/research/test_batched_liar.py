"""The batched Liar Game agrees with the scalar core on every step of every game.

Games are played in lockstep by :class:`BatchedLiar` (random legal ids) while
each one is followed through the core's checked ``apply``, started from the engine's
deal: the same mover, the same legal ids (:func:`usotsuki.envs.liar_codec.legal_ids`),
the same observation (:class:`~usotsuki.envs.liar_codec.LiarCodec` on the core's view,
for the seat to move and for every other seat), the same end, standings and rewards
(:func:`~usotsuki.envs.deals.place_returns`). The L8 shuffle is the one thing the engine
draws differently (its own stream, not the record's seeded generator): the core is handed the
engine's order of each flushed field, so the draws that follow take the same cards.
A multi-card play (O1) or give (O7) is made of select ids and a completing id, as the
environments make it: the core applies the play when it is complete, the selects only
change the legal ids and the mover's observation. With O7 the engine plays matches of
several games; the core starts each next game (``next_game``) from the engine's deal,
so its exchanges are checked against the engine's.
"""

from __future__ import annotations

import copy
import random
from dataclasses import fields

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from usotsuki import liar
from usotsuki.cards import DECK, Card
from usotsuki.envs import liar_codec
from usotsuki.envs.deals import place_returns
from usotsuki.liar import LiarRules, LiarState
from usotsuki.liar.rng import FlushRng
from usotsuki.liar.state import class_order, exchange_pairs
from usotsuki.research import batched_liar_kernels as kernels
from usotsuki.research.batched_liar import BatchedLiar


class EngineShuffle(FlushRng):
    """A flush generator that puts a field's cards in the order the engine chose."""

    def __init__(self) -> None:
        super().__init__(None, 0, None, random.Random(0), 0)
        self.order: list[Card] = []

    def shuffled(self, items: list[object]) -> FlushRng:
        assert sorted(items) == sorted(self.order)  # type: ignore[type-var]
        items[:] = self.order
        return self


@st.composite
def rules(draw: st.DrawFn) -> LiarRules:
    players = draw(st.integers(2, 8))
    jack_back = draw(st.booleans())
    multi = draw(st.booleans())
    return LiarRules(
        players=players, hand_size=draw(st.integers(1, 9)), deal_all=draw(st.booleans()),
        final_doubt=draw(st.booleans()),
        turn_limit=draw(st.sampled_from([None, None, 5, 40, 300])),  # 300: uint16 counts
        eight_cut=draw(st.booleans()), jack_back=jack_back,
        six_up=jack_back and draw(st.booleans()), binding=draw(st.booleans()),
        multi=multi, revolution=multi and draw(st.booleans()), classes=draw(st.booleans()))


def _start(engine: BatchedLiar, i: int) -> LiarState:
    state = liar.new_game(engine.rules, engine.hands(i), engine.stock_cards(i))
    values = {f.name: getattr(state, f.name) for f in fields(LiarState)}
    return LiarState(**values | {"rng": EngineShuffle()})


def _flush_order(engine: BatchedLiar, i: int, state: LiarState) -> list[Card]:
    """The engine's order of the field just flushed in game ``i``: first the cards a
    doubt's drawer took from it, then those still in the stock, top first."""
    field = [c for play in state.field for c in play.cards]
    stock = set(engine.stock_cards(i))
    return [c for c in field if c not in stock] + \
        [c for c in engine.stock_cards(i) if c in set(field)]


def _dealt_hands(engine: BatchedLiar, i: int, over: LiarState) -> list[list[Card]]:
    """The hands of game ``i``'s new game as dealt, before the O7 gifts: the engine's
    hands with each lower player's gift (the cards it knows it gave) given back."""
    hands = [set(hand) for hand in engine.hands(i)]
    assert over.standings is not None
    classes = class_order(over.standings, over.winner, engine.players)
    for higher, lower, _ in exchange_pairs(classes):
        gift = {c for c in DECK if int(engine.sets.own_held[i, lower, higher]) >> int(c) & 1}
        assert gift <= hands[higher]
        hands[higher] -= gift
        hands[lower] |= gift
    return [sorted(hand) for hand in hands]


def _check_observations(engine: BatchedLiar, cores: list[LiarState],
                        selected: list[list[Card]], codec: liar_codec.LiarCodec) -> None:
    obs = engine.to_codec(engine.observe())
    for seat in range(engine.players):
        of_seat = engine.to_codec(engine.observe(np.full(engine.n, seat)))
        for i, state in enumerate(cores):
            mine = selected[i] if state.to_move == seat else ()
            expected = codec.observation(liar.view(state, seat), mine)
            np.testing.assert_array_equal(of_seat[i], expected)
            if state.to_move == seat:
                np.testing.assert_array_equal(obs[i], expected)


def _actions(engine: BatchedLiar, mask: np.ndarray, rng: np.random.Generator,
             select_bias: float) -> np.ndarray:
    """The engine's uniformly random ids, except that with probability ``select_bias`` a
    game where a select is legal takes one (uniformly among them): without it, plays of
    four cards (O2) would be rare."""
    actions = engine.random_actions()
    assert mask[np.arange(engine.n)[~engine.done], actions[~engine.done]].all()
    selects = mask[:, liar_codec.SELECT_BASE:liar_codec.GIVE_BASE]
    for i in np.flatnonzero(selects.any(axis=1) & (rng.random(engine.n) < select_bias)):
        actions[i] = liar_codec.SELECT_BASE + rng.choice(np.flatnonzero(selects[i]))
    return actions


def play_against_core(engine: BatchedLiar, select_bias: float = 0.0,
                      seen: set[str] | None = None) -> int:
    """Play every game (or match) to its end, checking each step against the core; return
    steps. ``seen`` collects what happened: ``"multi"`` (a play of several cards
    doubted), ``"revolution"`` (a revolution in force), ``"give"`` (an O7 give)."""
    cores = [_start(engine, i) for i in range(engine.n)]
    selected: list[list[Card]] = [[] for _ in cores]
    codec = liar_codec.LiarCodec(engine.players, engine.rules.turn_limit)
    rng = np.random.default_rng(int(engine.rng.integers(2**32)))
    seen = set() if seen is None else seen
    returns: list[list[list[float]]] = [[] for _ in cores]  # each finished game's
    steps = 0
    while True:
        _check_observations(engine, cores, selected, codec)
        mask = engine.legal_mask()
        for i, state in enumerate(cores):
            assert engine.done[i] == state.is_over
            if state.is_over:
                assert not mask[i].any()
                continue
            assert engine.to_move[i] == state.to_move
            assert engine.game[i] == state.game
            assert engine.selected_cards(i) == selected[i]
            assert np.flatnonzero(mask[i]).tolist() == liar_codec.legal_ids(state, selected[i])
        if engine.done.all():
            break
        actions = _actions(engine, mask, rng, select_bias)
        live = ~engine.done
        ended = engine.step(actions)
        steps += 1
        for i in np.flatnonzero(live):
            state = cores[i]
            action = liar_codec.decode(int(actions[i]), selected[i])
            if isinstance(action, Card):  # O1: a card put aside; the core waits
                selected[i].append(action)
                assert not ended[i] and not engine.rewards[i].any()
                continue
            selected[i] = []
            if isinstance(action, liar.Doubt) and len(state.field[-1].cards) > 1:
                seen.add("multi")
            if isinstance(action, liar.Give):
                seen.add("give")
            assert isinstance(state.rng, EngineShuffle)
            state.rng.order = _flush_order(engine, i, state)
            state = liar.apply(state, action).state
            if state.revolution:
                seen.add("revolution")
            if state.is_over:
                assert state.standings is not None
                returns[i].append(place_returns(state.standings, engine.players))
                if len(returns[i]) < engine.games:  # O7: the match's next game
                    state = liar.next_game(state, _dealt_hands(engine, i, state),
                                           engine.stock_cards(i)).state
                else:
                    assert engine.standings(i) == state.standings
            assert [sorted(h) for h in state.hands] == engine.hands(i)
            assert list(state.stock) == engine.stock_cards(i)
            assert ended[i] == state.is_over
            if state.is_over:  # by place, averaged over the match's games
                assert engine.rewards[i].tolist() == pytest.approx(
                    np.mean(returns[i], axis=0).tolist())
            else:
                assert not engine.rewards[i].any()
            cores[i] = state
    return steps


@settings(max_examples=25, deadline=None)
@given(rules(), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_batched_liar_games_replay_through_the_core(r: LiarRules, games: int,
                                                    seed: int) -> None:
    engine = BatchedLiar(r, n=4, seed=seed, games=games if r.classes else 1)
    assert play_against_core(engine) > 0


def test_plain_four_players_many_games() -> None:
    engine = BatchedLiar(LiarRules(players=4, hand_size=5), n=24, seed=7)
    play_against_core(engine)
    assert engine.games_finished == 24


@settings(max_examples=25, deadline=None)
@given(rules(), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_select_heavy_games_replay_through_the_core(r: LiarRules, games: int,
                                                    seed: int) -> None:
    engine = BatchedLiar(r, n=4, seed=seed, games=games if r.classes else 1)
    assert play_against_core(engine, select_bias=0.6) > 0


def test_multi_and_revolution_many_games() -> None:
    """O1 and O2 with every house rule the engine covers: several-card plays are doubted
    (their cards all shown) and revolutions happen, and every step agrees with the core."""
    rules = LiarRules(players=4, hand_size=7, multi=True, revolution=True, eight_cut=True,
                      jack_back=True, six_up=True, binding=True)
    engine = BatchedLiar(rules, n=16, seed=11)
    seen: set[str] = set()
    play_against_core(engine, select_bias=0.5, seen=seen)
    assert engine.games_finished == 16
    assert seen == {"multi", "revolution"}


def test_observations_are_counts_in_the_smallest_dtype_that_holds_them() -> None:
    """uint8 while every count fits (52 cards, a turn limit up to 255), else wider."""
    for limit, dtype in ((None, np.uint8), (255, np.uint8), (256, np.uint16),
                         (65_535, np.uint16), (65_536, np.uint32)):
        engine = BatchedLiar(LiarRules(players=4, turn_limit=limit), n=1)
        assert engine.observe().dtype == dtype


def test_matches_with_classes_many_games() -> None:
    """O7 with every other house rule: matches of three games, their exchanges (two
    pairs at four players) and gives checked against the core's, rewards averaged."""
    rules = LiarRules(players=4, hand_size=5, multi=True, revolution=True, eight_cut=True,
                      jack_back=True, six_up=True, binding=True, classes=True)
    engine = BatchedLiar(rules, n=8, seed=13, games=3)
    seen: set[str] = set()
    play_against_core(engine, select_bias=0.5, seen=seen)
    assert engine.games_finished == 8 * 3
    assert "give" in seen


def test_three_players_give_one_card() -> None:
    """O7 with fewer than four players: one pair, one card each way."""
    engine = BatchedLiar(LiarRules(players=3, hand_size=4, classes=True), n=6, seed=5,
                         games=2)
    seen: set[str] = set()
    play_against_core(engine, seen=seen)
    assert "give" in seen


def test_matches_need_classes() -> None:
    with pytest.raises(ValueError, match="classes"):
        BatchedLiar(LiarRules(players=4), n=2, games=2)


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    engine = BatchedLiar(LiarRules(players=3), n=2, seed=3)
    before = engine.where.copy(), engine.to_move.copy()
    with pytest.raises(ValueError, match="not legal"):
        engine.step(np.array([liar_codec.PASS_ID] * 2))  # L6: a lead must play
    assert (engine.where == before[0]).all() and (engine.to_move == before[1]).all()
    for outside in (-1, liar_codec.NUM_ACTIONS, 10**6):  # no such id
        with pytest.raises(ValueError, match="not legal"):
            engine.step(np.array([outside, outside]))
    with pytest.raises(ValueError, match="one action per game"):
        engine.step(engine.random_actions()[:1])
    assert (engine.where == before[0]).all() and engine.decisions == 0


def test_step_refuses_exactly_the_ids_the_mask_leaves_out() -> None:
    """Along a game with multi-card plays, every id the mask leaves out (a select that
    could not be completed, a pass after a select, a card below the last selected) is
    refused, and every id it offers is taken."""
    engine = BatchedLiar(LiarRules(players=3, hand_size=6, multi=True, revolution=True),
                         n=1, seed=2)
    rng = np.random.default_rng(2)
    steps = selecting = 0
    while not engine.done[0] and steps < 60:
        selecting += bool(engine.selected_cards(0))
        mask = engine.legal_mask()[0]
        for action in range(liar_codec.NUM_ACTIONS):
            trial = copy.deepcopy(engine)
            if mask[action]:
                trial.step(np.array([action]))
            else:
                with pytest.raises(ValueError, match="not legal"):
                    trial.step(np.array([action]))
        engine.step(_actions(engine, engine.legal_mask(), rng, 0.7))
        steps += 1
    assert steps > 10 and selecting > 3


def test_autoreset_keeps_every_game_playing() -> None:
    engine = BatchedLiar(LiarRules(players=3, hand_size=3), n=16, seed=5, autoreset=True)
    for _ in range(300):
        engine.step(engine.random_actions())
    assert engine.decisions == 16 * 300
    assert engine.games_finished > 0 and not engine.done.any()


def _trajectory(seed: int, steps: int = 200) -> list[np.ndarray]:
    engine = BatchedLiar(LiarRules(players=4), n=8, seed=seed, autoreset=True)
    out = []
    for _ in range(steps):
        out.append(engine.observe())
        engine.step(engine.random_actions())
    return out


def test_a_seed_replays_the_same_games_and_another_seed_does_not() -> None:
    first, again, other = _trajectory(11), _trajectory(11), _trajectory(12)
    assert all((a == b).all() for a, b in zip(first, again, strict=True))
    assert not all((a == b).all() for a, b in zip(first, other, strict=True))


def test_deals_and_flushes_are_uniform() -> None:
    """The stream the deals and flushes shuffle from: over 20,000 deals each card lands
    in each of four hands 9 times in 52, and its integers below 7 are uniform."""
    engine = BatchedLiar(LiarRules(players=4), n=20_000, seed=7)
    in_hand = np.stack([(engine.where == s).mean(axis=0) for s in range(4)])
    assert np.abs(in_hand - 9 / 52).max() < 0.015  # 4.5 standard errors of 0.0027
    state, counts = np.uint64(3), np.zeros(7, dtype=np.int64)
    for _ in range(70_000):
        next_state, r = kernels._below(state, 7)
        state = np.uint64(next_state)  # the kernels keep it uint64; Python hands back an int
        counts[r] += 1
    assert np.abs(counts / 70_000 - 1 / 7).max() < 0.006  # about 4.5 standard errors


def test_gives_and_plays_refuse_exactly_the_ids_the_mask_leaves_out() -> None:
    """O7 matches with multi-card plays: at every step of a match of three games, each id the mask
    leaves out is refused and changes nothing (a give of the wrong count, a card not
    held, a play or a pass while a give is owed), and each id it offers is taken."""
    engine = BatchedLiar(LiarRules(players=4, hand_size=5, multi=True, classes=True),
                         n=1, seed=4, games=3)
    rng = np.random.default_rng(4)
    steps = gives = 0
    while not engine.done[0] and steps < 400:
        gives += bool(engine._legal()[1][0, 3])
        mask = engine.legal_mask()[0]
        where, held = engine.where.copy(), engine.held.copy()
        for action in np.flatnonzero(~mask):
            with pytest.raises(ValueError, match="not legal"):
                engine.step(np.array([action]))
        assert (engine.where == where).all() and (engine.held == held).all()
        for action in np.flatnonzero(mask):
            copy.deepcopy(engine).step(np.array([action]))
        engine.step(_actions(engine, engine.legal_mask(), rng, 0.5))
        steps += 1
    assert engine.done[0] and gives >= 4  # two games' exchanges: 2 cards and 1
