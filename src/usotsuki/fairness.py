"""Provably fair deals (docs/fairness.md): the commitment, the key, the keyed streams,
every deal derived from them, the record's ``fairness`` object and its verifier.

Pure: hashlib and hmac only, no I/O, no clock, no global randomness (the secret and the
contributions come in as data; :func:`new_secret` is the one door to a secure source).
docs/fairness.md is the specification; this module follows it section by section.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from usotsuki.bluff.deal import deck, split_hands
from usotsuki.cards import DECK, Card, format_cards, parse_cards
from usotsuki.core.errors import InvalidNotation

VERSION: Final = "usotsuki-fair-1"
SECRET_BYTES: Final = 32
LOCAL_TABLE: Final = "local"
SEED_BITS: Final = 53  # a Liar Game seed is exact in a JSON number and in JavaScript

_HEX64 = re.compile(r"[0-9a-f]{64}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class FairnessError(ValueError):
    """A malformed ``fairness`` object or contribution."""


def _text(*lines: str) -> bytes:
    return "\n".join(lines).encode("utf-8")


def _hmac(key: bytes, message: bytes) -> bytes:
    return hmac.new(key, message, hashlib.sha256).digest()


# -- 1. the secret and the commitment -------------------------------------------------

def new_secret() -> str:
    """A fresh secret: 32 bytes from the operating system's secure source, in hex."""
    return secrets.token_hex(SECRET_BYTES)


def new_contribution() -> str:
    """A contribution as a person's client makes one: 32 secure random bytes, in hex."""
    return secrets.token_hex(SECRET_BYTES)


def seeded_secret(seed: int | str, purpose: str = "secret") -> str:
    """A secret (or, with ``purpose="contribution"``, a contribution) derived from a
    reproducible seed (``--seed``, the server's test ``deal_seed``): same seed, same game.
    Such a secret is as guessable as its seed; only reproducible play uses it."""
    return hashlib.sha256(_text(VERSION, f"seeded-{purpose}", str(seed))).hexdigest()


def commitment(table: str, game: int, secret: str) -> str:
    """``hex(SHA256(T_commit))`` (docs/fairness.md, 1)."""
    _check_context(table, game)
    _check_hex(secret, "secret")
    return hashlib.sha256(_text(VERSION, "commit", f"table:{table}", f"game:{game}",
                                f"secret:{secret}")).hexdigest()


# -- 2. the contributions and the key -------------------------------------------------

@dataclass(frozen=True, slots=True)
class Contribution:
    """A person's seat and the value their client sent (None: none in time)."""

    seat: int
    value: str | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "value": self.value}


def key(secret: str, table: str, game: int, contributions: Sequence[Contribution]) -> bytes:
    """``K = HMAC(S, T_key)`` (docs/fairness.md, 2)."""
    _check_context(table, game)
    _check_hex(secret, "secret")
    _check_contributions(contributions, None)
    lines = [VERSION, "key", f"table:{table}", f"game:{game}"]
    lines += [f"contribution:{c.seat}:{c.value}" for c in contributions if c.value is not None]
    return _hmac(bytes.fromhex(secret), _text(*lines))


# -- 3. streams, 4. uniform integers, 5. the shuffle -----------------------------------

class Stream:
    """``stream(P)``: HMAC-SHA256 of the key over (version, purpose, block number), the
    blocks concatenated and read front to back (docs/fairness.md, 3)."""

    __slots__ = ("_key", "_purpose", "_blocks", "_buffer")

    def __init__(self, key: bytes, purpose: str) -> None:
        self._key = key
        self._purpose = purpose
        self._blocks = self._generate()
        self._buffer = b""

    def _generate(self) -> Iterator[bytes]:
        block = 0
        while True:
            yield _hmac(self._key, _text(VERSION, f"stream:{self._purpose}", f"block:{block}"))
            block += 1

    def read(self, count: int) -> bytes:
        """The next ``count`` unread bytes."""
        while len(self._buffer) < count:
            self._buffer += next(self._blocks)
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def uniform(self, n: int) -> int:
        """An integer ``0 <= r < n``, exactly uniform: 4-byte big-endian words, those at or
        above the largest multiple of ``n`` rejected (docs/fairness.md, 4)."""
        if not 1 <= n <= 1 << 32:
            raise ValueError(f"uniform(n) needs 1 <= n <= 2^32, not {n}")
        limit = (1 << 32) - (1 << 32) % n
        while True:
            x = int.from_bytes(self.read(4), "big")
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates from the end, in place (docs/fairness.md, 5)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]


# -- 6. the deals ----------------------------------------------------------------------

def bluff_purpose(round_index: int) -> str:
    return f"bluff:round:{round_index}"


def liar_purpose(game_index: int) -> str:
    return f"liar:game:{game_index}"


LIAR_SEED_PURPOSE: Final = "liar:seed"


@dataclass(frozen=True, slots=True)
class FairDeals:
    """A game's key: every deal of its record, derived (docs/fairness.md, 6)."""

    key: bytes

    @classmethod
    def of(cls, fairness: Fairness) -> FairDeals:
        """The deals of a game whose secret is known (the dealer's side, or a revealed
        record)."""
        if fairness.secret is None:
            raise FairnessError("the secret is not known: nothing can be dealt or verified")
        return cls(key(fairness.secret, fairness.table, fairness.game,
                       fairness.contributions))

    def stream(self, purpose: str) -> Stream:
        return Stream(self.key, purpose)

    def bluff_hands(self, round_index: int, ranks: int, sizes: Sequence[int]
                    ) -> tuple[tuple[Card, ...], ...]:
        """Round ``round_index``'s hands (B3, B13), each sorted: the deck of the ``ranks``
        highest ranks shuffled, then each seat in order takes its ``sizes[seat]`` cards."""
        cards = list(deck(ranks))
        if sum(sizes) > len(cards):
            raise FairnessError(f"hands of {sum(sizes)} cards from a deck of {len(cards)}")
        self.stream(bluff_purpose(round_index)).shuffle(cards)
        return split_hands(cards, sizes)

    def liar_deal(self, game_index: int, players: int, dealt: int
                  ) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        """Game ``game_index``'s hands (in dealing order) and stock (top first), L3: the
        shuffled deck's first ``dealt`` cards one at a time from seat 0, the rest the stock."""
        if not 0 <= dealt <= len(DECK):
            raise FairnessError(f"hands of {dealt} cards from a deck of {len(DECK)}")
        cards = list(DECK)
        self.stream(liar_purpose(game_index)).shuffle(cards)
        hands = tuple(tuple(cards[seat:dealt:players]) for seat in range(players))
        return hands, tuple(cards[dealt:])

    def liar_seed(self) -> int:
        """The record's ``seed``: 8 bytes, big-endian, shifted right to 53 bits."""
        return int.from_bytes(self.stream(LIAR_SEED_PURPOSE).read(8), "big") >> (64 - SEED_BITS)


# -- the record's ``fairness`` object ------------------------------------------------

@dataclass(frozen=True, slots=True)
class Fairness:
    """The record's top-level ``fairness`` object (docs/fairness.md)."""

    table: str
    game: int
    commitment: str
    contributions: tuple[Contribution, ...]
    secret: str | None  # None until revealed
    version: str = VERSION

    @classmethod
    def committed(cls, table: str, game: int, secret: str,
                  contributions: Sequence[Contribution] = ()) -> Fairness:
        """A game's object from its secret (the dealer's side), the secret revealed; use
        :meth:`unrevealed` for what may be shown before the game ends."""
        return cls(table, game, commitment(table, game, secret), tuple(contributions), secret)

    def with_contributions(self, contributions: Sequence[Contribution]) -> Fairness:
        _check_contributions(contributions, None)
        return Fairness(self.table, self.game, self.commitment, tuple(contributions),
                        self.secret, self.version)

    def unrevealed(self) -> Fairness:
        """The object with the secret withheld (``null``): what a live game shows."""
        return Fairness(self.table, self.game, self.commitment, self.contributions, None,
                        self.version)

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "table": self.table, "game": self.game,
                "commitment": self.commitment,
                "contributions": [c.to_json() for c in self.contributions],
                "secret": self.secret}

    @classmethod
    def from_json(cls, value: Any, players: int | None = None) -> Fairness:
        """Check and read a ``fairness`` object; :class:`FairnessError` says what is wrong.
        ``players`` bounds the contributions' seats when known."""
        if not isinstance(value, dict):
            raise FairnessError("'fairness' must be a JSON object")
        expected = {"version", "table", "game", "commitment", "contributions", "secret"}
        missing = sorted(expected - value.keys())
        if missing:
            raise FairnessError(f"'fairness' lacks {', '.join(map(repr, missing))}")
        unknown = sorted(value.keys() - expected)
        if unknown:
            raise FairnessError(f"'fairness' has unknown keys {', '.join(map(repr, unknown))}")
        if value["version"] != VERSION:
            raise FairnessError(f"unknown fairness version {value['version']!r} "
                                f"(this verifier knows {VERSION!r})")
        table, game = value["table"], value["game"]
        _check_context(table, game)
        _check_hex(value["commitment"], "commitment")
        secret = value["secret"]
        if secret is not None:
            _check_hex(secret, "secret")
        raw = value["contributions"]
        if not isinstance(raw, list):
            raise FairnessError("'contributions' must be a list")
        contributions = tuple(_contribution(item) for item in raw)
        _check_contributions(contributions, players)
        return cls(table, game, value["commitment"], contributions, secret)


def _contribution(item: Any) -> Contribution:
    if not isinstance(item, dict) or set(item) != {"seat", "value"}:
        raise FairnessError("each contribution must be an object with exactly 'seat' and "
                            "'value'")
    seat, value = item["seat"], item["value"]
    if not _is_int(seat):
        raise FairnessError(f"a contribution's seat must be an integer, not {seat!r}")
    if value is not None:
        _check_hex(value, f"seat {seat}'s contribution")
    return Contribution(seat, value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_hex(value: Any, what: str) -> None:
    if not isinstance(value, str) or _HEX64.fullmatch(value) is None:
        raise FairnessError(f"the {what} must be 64 lowercase hex digits (32 bytes)")


def _check_context(table: Any, game: Any) -> None:
    if not isinstance(table, str) or not 1 <= len(table) <= 64 or _CONTROL.search(table):
        raise FairnessError("the table must be a string of 1 to 64 characters, no control "
                            "characters")
    if not _is_int(game) or game < 0:
        raise FairnessError(f"the game must be an integer >= 0, not {game!r}")


def _check_contributions(contributions: Sequence[Contribution], players: int | None) -> None:
    seats = [c.seat for c in contributions]
    if any(not _is_int(s) or s < 0 or (players is not None and s >= players) for s in seats):
        raise FairnessError(f"contribution seats {seats} must be seats of the game")
    if any(a >= b for a, b in zip(seats, seats[1:], strict=False)):
        raise FairnessError(f"contribution seats {seats} must be strictly ascending")
    for c in contributions:
        if c.value is not None:
            _check_hex(c.value, f"seat {c.seat}'s contribution")


def local_fairness(person_seat: int, seed: int | str | None = None) -> Fairness:
    """A terminal game's object: the terminal plays both sides, drawing the secret and
    making the person's contribution itself; with a ``seed`` both derive from it, so the
    same seed plays the same game."""
    if seed is None:
        secret, value = new_secret(), new_contribution()
    else:
        secret, value = seeded_secret(seed), seeded_secret(seed, "contribution")
    return Fairness.committed(LOCAL_TABLE, 0, secret, (Contribution(person_seat, value),))


# -- 7. verifying a record -------------------------------------------------------------

class Unverifiable(ValueError):
    """A record that cannot be checked at all: ``place`` is ``fairness`` for no or a
    malformed ``fairness`` object or a secret not yet revealed, ``record`` for a record
    whose deals are not lists of cards."""

    def __init__(self, message: str, place: str = "record") -> None:
        super().__init__(message)
        self.place = place


@dataclass(frozen=True, slots=True)
class Mismatch:
    """Where a record differs from its derivation: ``place`` is ``commitment``, ``seed``,
    ``hand`` or ``stock``; ``number`` the round (Bluff) or game (Liar Game) index and
    ``seat`` the hand's seat where they apply."""

    place: str
    message: str
    number: int | None = None
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "round": self.number, "seat": self.seat,
                "message": self.message}


def verify_record(record: Mapping[str, Any]) -> Mismatch | None:
    """None when every deal (and the Liar Game's seed) follows from the record's revealed
    secret and contributions, else the first :class:`Mismatch` (docs/fairness.md, 7).

    :raises Unverifiable: when there is nothing sound to check.
    """
    game = record.get("game")
    if game not in ("bluff", "liar"):
        raise Unverifiable(f"'game' must be \"bluff\" or \"liar\", not {game!r}")
    entries = record.get("rounds" if game == "bluff" else "games")
    if not isinstance(entries, list):
        raise Unverifiable(f"the record has no list of {'rounds' if game == 'bluff' else 'games'}")
    if "fairness" not in record:
        raise Unverifiable("the record has no 'fairness' object", "fairness")
    try:
        fairness = Fairness.from_json(record["fairness"], _players(record))
    except FairnessError as exc:
        raise Unverifiable(f"malformed 'fairness': {exc}", "fairness") from None
    if fairness.secret is None:
        raise Unverifiable("the secret is not revealed yet (the game is not over): "
                           "nothing to verify", "fairness")
    expected = commitment(fairness.table, fairness.game, fairness.secret)
    if expected != fairness.commitment:
        return Mismatch("commitment", "the revealed secret does not match the commitment "
                        f"(SHA-256 gives {expected}, the record commits to "
                        f"{fairness.commitment})")
    deals = FairDeals.of(fairness)
    if game == "bluff":
        return _verify_bluff(deals, record, entries)
    return _verify_liar(deals, record, entries)


def _players(record: Mapping[str, Any]) -> int | None:
    players = record.get("players")
    if isinstance(players, list):
        return len(players)
    return players if _is_int(players) else None


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
        raise Unverifiable(f"{where} must be a list of cards")
    try:
        return parse_cards(value)
    except InvalidNotation as exc:
        raise Unverifiable(f"{where}: {exc}") from None


def _hands(entry: Any, where: str) -> list[tuple[Card, ...]]:
    hands = entry.get("hands") if isinstance(entry, dict) else None
    if not isinstance(hands, list):
        raise Unverifiable(f"{where} has no list of hands")
    return [_cards(hand, f"{where}'s hand {seat}") for seat, hand in enumerate(hands)]


def _compare_hands(number: int, kind: str, derived: Sequence[Sequence[Card]],
                   recorded: Sequence[Sequence[Card]]) -> Mismatch | None:
    for seat, (mine, theirs) in enumerate(zip(derived, recorded, strict=True)):
        if sorted(mine) != sorted(theirs):
            return Mismatch("hand", f"{kind} {number}, seat {seat}: the record's hand "
                            f"{_show(theirs)} is not the derived {_show(sorted(mine))}",
                            number, seat)
    return None


def _show(cards: Sequence[Card]) -> str:
    return f"[{format_cards(cards)}]"


def _verify_bluff(deals: FairDeals, record: Mapping[str, Any], rounds: list[Any]
                  ) -> Mismatch | None:
    rules = record.get("rules")
    ranks = rules.get("ranks", 13) if isinstance(rules, dict) else 13
    if not _is_int(ranks) or not 2 <= ranks <= 13:
        raise Unverifiable(f"rules.ranks must be an integer from 2 to 13, not {ranks!r}")
    for number, entry in enumerate(rounds):
        hands = _hands(entry, f"round {number}")
        sizes = [len(hand) for hand in hands]
        if sum(sizes) > 4 * ranks:
            return Mismatch("hand", f"round {number}: hands of {sum(sizes)} cards cannot come "
                            f"from a deck of {4 * ranks}", number)
        derived = deals.bluff_hands(number, ranks, sizes)
        mismatch = _compare_hands(number, "round", derived, hands)
        if mismatch is not None:
            return mismatch
    return None


def _verify_liar(deals: FairDeals, record: Mapping[str, Any], games: list[Any]
                 ) -> Mismatch | None:
    seed = record.get("seed", 0)
    derived_seed = deals.liar_seed()
    if not _is_int(seed) or seed != derived_seed:
        return Mismatch("seed", f"the record's flush seed {seed!r} is not the derived "
                        f"{derived_seed}")
    for number, entry in enumerate(games):
        hands = _hands(entry, f"game {number}")
        stock = _cards(entry.get("stock"), f"game {number}'s stock")
        dealt = sum(len(hand) for hand in hands)
        if dealt > len(DECK) or not hands:
            return Mismatch("hand", f"game {number}: hands of {dealt} cards cannot come "
                            f"from a deck of {len(DECK)}", number)
        derived_hands, derived_stock = deals.liar_deal(number, len(hands), dealt)
        mismatch = _compare_hands(number, "game", derived_hands, hands)
        if mismatch is not None:
            return mismatch
        if tuple(stock) != derived_stock:
            at = next((i for i, (a, b) in enumerate(zip(stock, derived_stock, strict=False))
                       if a != b), min(len(stock), len(derived_stock)))
            return Mismatch("stock", f"game {number}: the stock differs from the derived "
                            f"one at position {at} (top first: 0)", number)
    return None
