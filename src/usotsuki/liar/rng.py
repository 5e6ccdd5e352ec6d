"""The record's flush generator (RULES.md Part 4, L8) as an immutable value.

Part 4 fixes the shuffle exactly: one ``random.Random(seed)`` per record, whose
``shuffle`` mixes each flushed field in turn. A state must carry that generator's state
and stay immutable, yet ``getstate()``/``setstate()`` copy 625 words at every flush, which
made flushes most of the cost of a random game (measured: 121k -> 172k decisions/s
without the copies).

So a :class:`FlushRng` is, as a value, "the seed's generator after shuffling lists of these
lengths"; equality and hashing compare the generator states themselves. Inside, it keeps
the live ``random.Random`` positioned at that point for the first (usually the only)
flush from it to take over with no copy. A second flush from the same value (a search
going back, a test) rebuilds the generator from the nearest snapshot: the result is
the same, only slower (a root made from a seed starts from the seed). No global random
and no clock is involved.
"""

from __future__ import annotations

import random
from typing import Any

from usotsuki.core.draws import shuffle


class FlushRng:
    """The state of a record's flush generator; use :meth:`from_seed` and :meth:`shuffled`."""

    __slots__ = ("_parent", "_length", "_snapshot", "_live", "_seed")

    def __init__(self, parent: FlushRng | None, length: int, snapshot: tuple[Any, ...] | None,
                 live: random.Random | None, seed: int | str | None = None) -> None:
        self._parent = parent  # this state is the parent's after shuffling `length` items
        self._length = length
        self._snapshot = snapshot  # getstate() here, once known (roots from a state always)
        self._live: list[random.Random] = [live] if live is not None else []  # at most one
        self._seed = seed  # a root made from a seed: rebuilt from it (no snapshot needed)

    @classmethod
    def from_seed(cls, seed: int | str) -> FlushRng:
        """The generator ``random.Random(seed)`` before any flush. Its ``getstate()`` (625
        words) is taken only if asked for: a rebuild can start from the seed itself."""
        return cls(None, 0, None, random.Random(seed), seed)

    @classmethod
    def from_state(cls, state: tuple[Any, ...]) -> FlushRng:
        """A generator in the state ``random.Random.getstate()`` returned."""
        rng = random.Random.__new__(random.Random)  # setstate sets everything
        rng.setstate(state)
        return cls(None, 0, rng.getstate(), rng)

    def shuffled(self, items: list[Any]) -> FlushRng:
        """Shuffle ``items`` in place exactly as ``random.Random.shuffle`` would from this
        state, and return the state after it."""
        try:
            rng = self._live.pop()  # atomic: one flush takes the live generator over
        except IndexError:
            rng = self._rebuild()
        shuffle(rng, items)  # rng.shuffle(items), the same draws (usotsuki.core.draws)
        return FlushRng(self, len(items), None, rng)

    def getstate(self) -> tuple[Any, ...]:
        """``random.Random.getstate()`` of the generator at this point."""
        if self._snapshot is None:
            try:
                rng = self._live.pop()
            except IndexError:
                self._rebuild()
            else:
                self._snapshot = rng.getstate()
                self._live.append(rng)
        assert self._snapshot is not None
        return self._snapshot

    def _rebuild(self) -> random.Random:
        """A new generator at this point, from the nearest snapshot up the chain; the
        snapshot is kept so the next rebuild stops here."""
        lengths = []
        node: FlushRng | None = self
        seed: int | str | None = None
        while node is not None:
            parent = node._parent  # read before the snapshot: another thread may cut it
            snapshot = node._snapshot
            if snapshot is not None:
                break
            if parent is None:  # a root without a snapshot: made from its seed
                seed = node._seed
                break
            lengths.append(node._length)
            node = parent
        if snapshot is None:
            assert seed is not None
            rng = random.Random(seed)
        else:
            rng = random.Random.__new__(random.Random)
            rng.setstate(snapshot)
        for length in reversed(lengths):  # shuffle's draws depend on the length only
            shuffle(rng, [None] * length)
        if self._snapshot is None:
            self._snapshot = rng.getstate()
            self._parent = None  # the chain above is no longer needed
        return rng

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlushRng):
            return NotImplemented
        return self is other or self.getstate() == other.getstate()

    def __hash__(self) -> int:
        return hash(self.getstate())

    def __repr__(self) -> str:
        known = self._snapshot is not None or self._parent is None  # a root: from a seed
        return f"FlushRng(<{'snapshot' if known else 'derived'}>)"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FlushRng.from_state, (self.getstate(),))

    def __copy__(self) -> FlushRng:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FlushRng:
        return self
