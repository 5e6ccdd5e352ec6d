"""Honest hints for both games: how likely the current claim is, two ways.

- **given how people play** (「人の打ち方を踏まえると」): the calibrated belief, fitted to
  how players actually declare (Liar Game: :func:`usotsuki.bots.liar.calibrated.
  hint_truth`; Bluff: the calibrated function of its hints module when there is one,
  else nothing is shown);
- **from the cards alone** (「カードだけから計算すると」): the exact odds when the cards you
  cannot see are taken as dealt at random and the claim as any of the player's cards
  (:func:`usotsuki.odds_liar.truth_probability`, :func:`usotsuki.odds.call_probability`).

The second is exact for its model, but people do not play at random: in the Liar Game,
plays the card odds call unlikely are mostly truthful. The hint shows both, each
labelled, so a person can see the difference. The terminal prints both languages'
labels; the browser shows the labels of its language (``hint.*`` messages).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LABELS: dict[str, dict[str, str]] = {
    "calibrated": {"en": "given how people play", "ja": "人の打ち方を踏まえると"},
    "odds": {"en": "from the cards alone", "ja": "カードだけから計算すると"},
}
"""The two probabilities' labels in both languages (the browser's messages say the same)."""

WHY: dict[str, dict[str, str]] = {
    "calibrated": {"en": "reads the claims so far as players make them: trust this one",
                   "ja": "これまでの宣言を実際の打ち方どおりに読んだ値：こちらを信頼"},
    "odds": {"en": "takes unseen cards as random, the claim as telling nothing",
             "ja": "見えないカードは無作為、宣言は手札と無関係と仮定した値"},
}
"""What each probability assumes, one plain sentence per language (the browser's
``hint.calibratedWhy`` and ``hint.oddsWhy`` say the same)."""


@dataclass(frozen=True, slots=True)
class TruthHint:
    """The current claim's chance of being true, two ways (None: not known)."""

    calibrated: float | None  # given how people play
    odds: float | None  # from the cards alone

    def to_json(self) -> dict[str, Any]:
        return {"calibrated": self.calibrated, "odds": self.odds}

    def lines(self) -> list[str]:
        """One line per known probability, labelled in English and Japanese."""
        out = []
        for key in ("calibrated", "odds"):
            p = getattr(self, key)
            if p is not None:
                out.append(f"{p:.2f} {LABELS[key]['en']} ({LABELS[key]['ja']})")
        return out

    def explained(self) -> list[str]:
        """:meth:`lines`, each followed by what that probability assumes (:data:`WHY`)."""
        out = []
        keys = [k for k in ("calibrated", "odds") if getattr(self, k) is not None]
        for key, line in zip(keys, self.lines(), strict=True):
            out += [line, f"  ({WHY[key]['en']})"]
        return out
