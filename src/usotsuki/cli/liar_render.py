"""Text for the Liar Game in the terminal: one seat's view and the events it may see.

Everything here reads a :class:`~usotsuki.liar.view.LiarView`, a ``LegalSummary`` or
events already filtered for the seat; it decides no rule (the core does) and prints
nothing (the shell does). Output is Rich markup.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.markup import escape

from usotsuki.cards import Card
from usotsuki.cli.text import fit, plural, plurals
from usotsuki.liar import events as ev
from usotsuki.liar.actions import CARD_RATE, NEXT, RATE_NAMES
from usotsuki.liar.legal import LegalSummary
from usotsuki.liar.rules import HOUSE_RULES, LiarRules
from usotsuki.liar.view import LiarView

HOUSE_RULE_NUMBERS = {name: f"O{i}" for i, name in enumerate(HOUSE_RULES, 1)}
ORDINALS = ("1st", "2nd", "3rd") + tuple(f"{n}th" for n in range(4, 9))


class Names:
    """Seat names for sentences: "You play" but "random 1 plays"."""

    def __init__(self, names: Sequence[str], seat: int) -> None:
        self.names, self.seat = list(names), seat

    def __getitem__(self, seat: int) -> str:
        return escape(self.names[seat])

    def verb(self, seat: int, verb: str) -> str:
        """``name verb``, agreeing: "You pass", "random 1 passes"."""
        if seat == self.seat:
            return f"{self[seat]} {verb}"
        ending = "es" if verb.endswith(("s", "sh", "ch", "x")) else "s"
        return f"{self[seat]} {verb}{ending}"

    def object(self, seat: int) -> str:
        """The seat as a sentence's object: "you" for the person."""
        return "you" if seat == self.seat else self[seat]

    def possessive(self, seat: int) -> str:
        return "your" if seat == self.seat else f"{self[seat]}'s"


def rate(r: int) -> str:
    return RATE_NAMES[r]


def a_rate(r: int) -> str:
    """The rate with its article, as it is said: "a 5", "an 8", "an A"."""
    name = rate(r)
    return f"{'an' if name in ('8', 'A') else 'a'} {name}"


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards)) or "-"


def hand_text(hand: Sequence[Card]) -> str:
    """A hand grouped by rate, lowest first in the normal order (the view sorts it)."""
    groups: list[list[Card]] = []
    for card in hand:
        if groups and CARD_RATE[groups[-1][0]] == CARD_RATE[card]:
            groups[-1].append(card)
        else:
            groups.append([card])
    return "   ".join(" ".join(map(str, g)) for g in groups) or "(no cards)"


def rules_text(rules: LiarRules, games: int) -> str:
    """One line naming every option in force."""
    house = [f"{name} ({HOUSE_RULE_NUMBERS[name]})" for name in HOUSE_RULES
             if getattr(rules, name)]
    sizes = rules.hand_sizes()
    deal = (f"all 52 cards dealt ({min(sizes)}-{max(sizes)} each)" if rules.deals_all
            else f"{rules.hand_size} cards each")
    parts = [f"{rules.players} players", deal,
             "house rules: " + (", ".join(house) if house else "none"),
             f"final doubt {'on' if rules.final_doubt else 'off'} (L10)"]
    if rules.turn_limit is not None:
        parts.append(f"turn limit {rules.turn_limit} (L11)")
    if games > 1:
        parts.append(f"a match of {games} games")
    return "; ".join(parts)


def order_text(view: LiarView) -> str:
    """The rate order in force (L2), and what made it so (O2, O4)."""
    rates = " ".join(reversed(RATE_NAMES) if view.reversed else RATE_NAMES)
    causes = [c for c, on in (("revolution", view.revolution), ("J-back", view.jack_back)) if on]
    why = f" ({' + '.join(causes)})" if causes else ""
    name = "[bold magenta]REVERSED[/bold magenta]" if view.reversed else "normal"
    return f"order {name}{why}: low {rates} high"


def in_force_lines(view: LiarView) -> list[str]:
    """What restricts the next play: binding (O6) and 8-cut (O3)."""
    lines = []
    current = view.field[-1] if view.field else None
    if view.bound and current is not None:
        nxt = NEXT[view.reversed][current.rate]
        need = f"exactly {rate(nxt)}" if nxt is not None else "a rate above the top: none can"
        lines.append(f"[bold yellow]bound[/bold yellow] (O6): the next play must declare {need}")
    if view.eight_cut:
        lines.append("[bold yellow]8-cut[/bold yellow] (O3): after this 8 the others may only "
                     "pass or doubt")
    return lines


def table_lines(view: LiarView, names: Names, width: int = 80) -> list[str]:
    """Hand sizes, classes, stock, whose turn, the field face down, what is in force;
    long lines break between seats and plays, never inside one, to fit ``width``."""
    classes = {s: i for i, s in enumerate(view.classes)}
    seats = []
    for s, n in enumerate(view.hand_sizes):
        turn = "▶ " if s == view.to_move else ""
        cls = f" [{ORDINALS[classes[s]]}]" if s in classes else ""
        seats.append(f"{turn}{names[s]}{escape(cls)}: {plural(n, 'card')}")
    lines = [*fit([*seats, f"stock: {plural(view.stock_size, 'card')}"], width),
             order_text(view)]
    if view.field:
        plays = [f"{names[p.seat]}: {plural(p.count, 'card')} as {rate(p.rate)}"
                 for p in view.field]
        total = sum(p.count for p in view.field)
        lines += fit([f"field ({plural(total, 'card')} face down): {plays[0]}", *plays[1:]],
                     width, sep=" · ")
        current = view.field[-1]
        lines.append(f"current play: [bold]{plural(current.count, 'card')} as "
                     f"{rate(current.rate)}[/bold] by {names[current.seat]}")
    else:
        lines.append("field: empty")
    lines += in_force_lines(view)
    return lines


def legal_text(view: LiarView, legal: LegalSummary, names: Names) -> str:
    """What the player to move may do now, from the core's ``LegalSummary``."""
    if legal.give:
        owed = next(e for e in view.owed if e.giver == view.to_move)
        lowest = cards_text((view.hand or ())[:owed.size])
        return (f"give {names[owed.receiver]} {plural(owed.size, 'card')} of your choice "
                f"(O7), e.g. 'give {lowest}'")
    options = []
    if legal.play:
        rates = sorted(legal.rates, key=lambda r: -r if view.reversed else r)
        rate_list = "any rate" if len(rates) == len(RATE_NAMES) else \
            ", ".join(rate(r) for r in rates)
        lo, hi = legal.counts[0], legal.counts[-1]
        counts = plural(lo, "card") if lo == hi else f"{lo} to {hi} cards"
        options.append(f"play {counts} as {rate_list}")
    if legal.pass_:
        options.append("pass (draw a card)" if view.stock_size else
                       "pass (the stock is empty: nothing to draw)")
    if legal.doubt:
        options.append("doubt")
    if legal.accept:
        options.append("accept")
    return ", or ".join(options)


def events_lines(events: Sequence[ev.Event], names: Names) -> list[str]:
    """Sentences for the events one seat may see (already filtered), in order."""
    mine: dict[tuple[type, int | None], ev.Event] = {
        (type(e), e.seat): e for e in events if isinstance(e, ev.PlayedCards | ev.DrewCards)}
    lines: list[str] = []
    for e in events:
        line = _event_line(e, names, mine)
        if line:
            lines.append(line)
    return lines


def _event_line(e: ev.Event, names: Names,
                mine: dict[tuple[type, int | None], ev.Event]) -> str | None:
    if isinstance(e, ev.Played):
        own = mine.get((ev.PlayedCards, e.seat))
        shown = f" [dim](really {cards_text(own.cards)})[/dim]" \
            if isinstance(own, ev.PlayedCards) else ""
        return (f"{names.verb(e.seat, 'play')} [bold]{plural(e.count, 'card')} as "
                f"{rate(e.rate)}[/bold] face down{shown}")
    if isinstance(e, ev.Passed):
        return f"{names.verb(e.seat, 'pass')}"
    if isinstance(e, ev.Drew):
        own = mine.get((ev.DrewCards, e.seat))
        shown = f": {cards_text(own.cards)}" if isinstance(own, ev.DrewCards) else ""
        return f"  {names.verb(e.seat, 'draw')} {plural(e.count, 'card')}{shown}"
    if isinstance(e, ev.Doubted):
        return _doubt_line(e, names)
    if isinstance(e, ev.Accepted):
        return f"{names.verb(e.seat, 'accept')} the last play (L10)"
    if isinstance(e, ev.Flushed):
        why = "everyone passed (L7)" if e.cause == "all passed" else "the doubt (L9)"
        return f"  the field ({plural(e.count, 'card')}) goes shuffled under the stock after {why}"
    if isinstance(e, ev.OrderChanged):
        order = "[bold magenta]reversed[/bold magenta]" if e.reversed else "normal"
        what = {"revolution": "[bold]Revolution![/bold] (O2)",
                "jack back": "[bold]J-back![/bold] (O4)",
                "six up": "[bold]6 up![/bold] The J-back ends (O5).",
                "flush": "The J-back ends with the flush (L8)."}.get(e.cause, e.cause)
        return f"  {what} The order is now {order}."
    if isinstance(e, ev.Bound):
        return (f"  [bold yellow]Bound![/bold yellow] {rate(e.rate)} follows the rate just "
                "below it: until the flush each play must declare the next rate (O6).")
    if isinstance(e, ev.Gave):
        how = "automatically, the highest" if e.automatic else "by choice"
        return f"{names.verb(e.giver, 'give')} {names.object(e.receiver)} " \
               f"{plural(e.count, 'card')} ({how}, O7)"
    if isinstance(e, ev.GaveCards):
        return f"  the cards: {cards_text(e.cards)}"
    if isinstance(e, ev.GameOver):
        if e.winner is None:
            return "[bold]The turn limit ends the game: no winner (L11).[/bold]"
        return f"[bold green]{names.verb(e.winner, 'win')} the game![/bold green]"
    return None  # Dealt, PlayedCards, DrewCards: shown elsewhere


def _doubt_line(e: ev.Doubted, names: Names) -> str:
    # The cards not of the declared rate are the lie's evidence (L9): marked with a "*"
    # as well as coloured, so that they stay visible without colour (NO_COLOR, a pipe).
    shown = " ".join(f"[green]{c}[/green]" if CARD_RATE[c] == e.rate else
                     f"[bold red]{c}*[/bold red]" for c in e.cards)
    verdict = "[bold green]TRUTHFUL[/bold green]" if e.truthful else "[bold red]A LIE[/bold red]"
    legend = "" if e.truthful else f" (* not {a_rate(e.rate)})"
    return (f"{names.verb(e.doubter, 'doubt')} {names.possessive(e.doubted)} "
            f"{plural(len(e.cards), 'card')} as {rate(e.rate)}: face up {shown}: "
            f"{verdict}{legend}")


_SEAT = re.compile(r"\bseat (\d+)('s)?( gives\b)?")


def name_seats(message: str, names: Names) -> str:
    """A core message with names for seat numbers and plurals as said, for the people
    reading it: "4H is not in seat 0's hand" becomes "4H is not in your hand", "seat 0
    gives exactly 1 card(s) to seat 2 (O7)" (the rule) becomes "You must give exactly 1
    card to random 2 (O7)" (what to do). The result is markup (the rest is escaped)."""
    message = plurals(message)
    out, last = [], 0
    for m in _SEAT.finditer(message):
        seat = int(m.group(1))
        out.append(escape(message[last:m.start()]))
        last = m.end()
        if not 0 <= seat < len(names.names):
            out.append(escape(m.group(0)))
        elif m.group(2):
            mine = names.possessive(seat)
            out.append(mine[:1].upper() + mine[1:] if m.start() == 0 else mine)
        elif m.group(3):
            out.append(f"{names[seat]} must give")
        elif seat == names.seat and m.start() > 0 and message[m.start() - 2:m.start()] != ": ":
            out.append("you")
        else:
            out.append(names[seat])
    out.append(escape(message[last:]))
    return "".join(out)


def standings_lines(standings: Sequence[Sequence[int]], hand_sizes: Sequence[int],
                    names: Names) -> list[str]:
    """L11 places, numbered as the record lists them; equal counts share a place."""
    lines = []
    for place, seats in enumerate(standings, 1):
        who = ", ".join(f"{names[s]} ({plural(hand_sizes[s], 'card')})" for s in seats)
        shared = " (shared)" if len(seats) > 1 else ""
        lines.append(f"{place}. {who}{shared}")
    return lines


def classes_line(classes: Sequence[int], names: Names) -> str:
    """O7: the classes a game's standings gave, first place first."""
    return "classes (O7): " + ", ".join(f"{ORDINALS[i]} {names[s]}" for i, s in
                                       enumerate(classes))
