"""A new player's first evening at the table: the phone's table talk lets go of you, the
game-ending reveal comes before the results, a Liar match says who placed where between
games, the house rules form ticks what a rule needs, the review and its chart speak
Japanese, fast-forward plays the bots out, and big moments show (still under reduced
motion)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import LiveServer, SteppedClock
from e2e_helpers import (
    ALLOWED_LATIN,
    IN_VIEW,
    LATIN,
    bluff_turn,
    create_table,
    english_left,
    liar_turn,
    play_out,
    review_a_bot_game,
    shot,
    start,
    state_n,
    wait_after,
)
from playwright.sync_api import expect

OPEN = re.compile(r"\bopen\b")
CLOSED = """() => document.getElementById("side").getBoundingClientRect().left >= innerWidth - 1"""
SHOWN = """() => document.getElementById("side").getBoundingClientRect().right <= innerWidth + 1"""


def test_phone_table_talk_closes_by_button_outside_tap_and_escape(new_page: Any) -> None:
    page = new_page(phone=True)  # 390x844
    create_table(page, "bluff", "Mika", ["bot:random", "bot:random"])
    start(page)
    page.wait_for_selector("#board:not([hidden])")
    toggle, side = page.locator("#log-toggle"), page.locator("#side")

    def open_drawer() -> None:
        toggle.tap()
        expect(side).to_have_class(OPEN)
        page.wait_for_function(SHOWN)
        assert toggle.get_attribute("aria-expanded") == "true"
        assert page.evaluate(IN_VIEW, "#side-close")  # its own way out, on screen

    def assert_closed() -> None:
        expect(side).not_to_have_class(OPEN)
        page.wait_for_function(CLOSED)
        assert toggle.get_attribute("aria-expanded") == "false"

    open_drawer()
    shot(page, "30-table-talk-open-phone")
    page.locator("#side-close").tap()
    assert_closed()
    assert page.evaluate("document.activeElement.id") == "log-toggle"  # focus comes back

    open_drawer()
    turn = page.locator("#turn").bounding_box()
    assert turn is not None
    page.touchscreen.tap(turn["x"] + 10, turn["y"] + turn["height"] / 2)  # beside the drawer
    assert_closed()

    open_drawer()
    page.keyboard.press("Escape")
    assert_closed()
    assert page.evaluate("document.activeElement.id") == "log-toggle"


# What a bubble says most often: it must leave every seat's card count readable.
BUBBLES_OVER_COUNTS = """(texts) => {
  const covered = [];
  for (const seat of document.querySelectorAll("#opponents .seat")) {
    const count = seat.querySelector(".count").getBoundingClientRect();
    for (const text of texts) {
      const bubble = document.createElement("div");
      bubble.className = "bubble";
      bubble.textContent = text;
      seat.appendChild(bubble);
      const box = bubble.getBoundingClientRect();
      if (box.bottom > count.top && box.top < count.bottom && box.right > count.left
          && box.left < count.right) covered.push(`${seat.id}: ${text}`);
      bubble.remove();
    }
  }
  return covered; }"""


def test_phone_bubbles_leave_the_card_counts_readable(new_page: Any) -> None:
    page = new_page(phone=True)
    create_table(page, "liar", "Mika", ["bot:random"] * 5, {"multi": True})
    start(page)
    page.wait_for_selector("#board:not([hidden])")
    assert page.evaluate(BUBBLES_OVER_COUNTS, ["2 cards as Q", "Doubt!", "2枚「Q」", "パス"]) == []


def test_the_final_reveal_comes_before_the_results(new_page: Any) -> None:
    page = new_page(size=(1366, 768))
    create_table(page, "bluff", "Mika", ["bot:random", "bot:random"], {"max_cards": 1})
    start(page)
    play_out(page, bluff_turn, challenge=0.5)
    page.wait_for_selector("#reveal")
    assert page.locator("#results").is_hidden()
    for line in ("#reveal .verdict", "#reveal .loser", "#reveal-results"):
        assert page.evaluate(IN_VIEW, line), f"{line} is cut off"
    shot(page, "31-final-reveal-first")
    page.click("#reveal-results")
    page.wait_for_selector("#results:not([hidden])")
    assert page.locator("#reveal").count() == 0
    shot(page, "32-results-after-the-reveal")


# A line of the reveal wholly shown: inside the reveal's box (no scrolling to it) and the screen.
IN_REVEAL = """sel => { const e = document.querySelector(sel); if (!e) return false;
    const box = document.getElementById("reveal").getBoundingClientRect();
    const r = e.getBoundingClientRect();
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.bottom <= innerHeight + 1; }"""


def test_the_challenge_reveal_is_whole_with_the_hint_open(new_page: Any) -> None:
    page = new_page(size=(1366, 768))
    create_table(page, "bluff", "Mika", ["bot:normal", "bot:normal"])
    start(page)
    rng = random.Random(4)
    for _ in range(80):
        page.wait_for_selector(".turn.yours, body[data-status=finished]")
        assert page.get_attribute("body", "data-status") != "finished", "no judging turn came"
        if page.locator("#challenge").count() and page.locator("#show-reveal").is_visible():
            break
        bluff_turn(page, rng, challenge=0.3)
    page.click("#hint-toggle")
    page.wait_for_selector("#truth-hint")
    page.click("#show-reveal")
    for line in ("#reveal .verdict", "#reveal .loser"):
        assert page.evaluate(IN_REVEAL, line), f"{line} is cut off"
    assert page.evaluate(IN_VIEW, "#controls")
    shot(page, "40-challenge-reveal-with-hint")


def test_liar_match_between_games_screen(new_page: Any, own_server: LiveServer) -> None:
    """Game 1 of a match ends: places, the class titles (大富豪 to 大貧民), the exchange
    to come and why, in Japanese without a word of English; then in English."""
    page = new_page(locale="ja-JP", size=(1366, 768))
    create_table(page, "liar", "花子", ["bot:random", "bot:sensible", "bot:random"],
                 {"multi": True, "classes": True, "games": 2, "hand_size": 3,
                  "turn_limit": 24}, base=own_server.url)
    start(page)
    rng = random.Random(2)
    for _ in range(200):
        page.wait_for_selector(".turn.yours, #between-continue, #reveal-results, "
                               "body[data-status=finished]")
        if page.locator("#reveal-results").count():  # game 1 ended on a doubt: it comes first
            assert page.locator("#results").is_hidden()
            shot(page, "33-liar-match-final-doubt-first-ja")
            page.click("#reveal-results")
            continue
        if page.locator("#between-continue").count():
            break
        assert page.get_attribute("body", "data-status") != "finished", \
            "the match ended without a between-games screen"
        liar_turn(page, rng, doubt=0.3)
    panel = page.locator("#results")
    expect(panel).to_be_visible()
    text = panel.inner_text()
    assert "第1ゲーム" in text
    assert page.locator("#between-standings tbody tr").count() == 4
    titles = page.locator("#between-standings .class-title").all_inner_texts()
    assert sorted(titles) == sorted(["大富豪", "富豪", "貧民", "大貧民"])
    assert page.locator("#exchange-list li").count() == 2  # last-first 2 cards, 1 for the next
    assert "一番強いカードを2枚" in text and "大富豪" in page.inner_text("#exchange-list")
    assert english_left(page) == []
    shot(page, "34-liar-between-games-ja")
    page.keyboard.press("l")
    text = panel.inner_text()
    assert "Game 1" in text and "Tycoon" in text and "Beggar" in text
    # "their" or, when this person is the Beggar, "your": the deal decides (fairness.md)
    assert re.search(r"(their|your) 2 best cards", page.inner_text("#exchange-list"))
    shot(page, "35-liar-between-games-en")
    page.click("#between-continue")
    expect(panel).to_be_hidden()
    assert page.locator("#whose").inner_text()  # the table of game 2 under it


def test_house_rules_form_ticks_what_a_rule_needs(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    page.check("input[name=game][value=liar]")
    page.locator("#house-rules").evaluate("d => { d.open = true; }")
    box = {name: page.locator(f"#opt-{name}") for name in
           ("multi", "revolution", "jack_back", "six_up")}
    assert not box["multi"].is_checked()
    box["revolution"].check()
    assert box["multi"].is_checked()  # ticking Revolution ticks Multiple cards
    box["multi"].uncheck()
    assert not box["revolution"].is_checked()  # and unticking that unticks Revolution
    box["six_up"].check()
    assert box["jack_back"].is_checked()
    box["jack_back"].uncheck()
    assert not box["six_up"].is_checked()
    assert "Needs Multiple cards" in page.inner_text("label:has(#opt-revolution)")
    widths = page.locator("#options input[type=checkbox]").evaluate_all(
        "els => els.map(e => Math.round(e.getBoundingClientRect().width))")
    assert len(widths) == 9 and len(set(widths)) == 1, widths  # one width for every box
    shot(page, "36-house-rules-needs")
    # Where the server must refuse, the page names both rules, in both languages.
    said = page.evaluate("""async () => {
        const { api } = await import("/js/api.js");
        const { errorText, setLang } = await import("/js/i18n.js");
        try {
            await api("/api/tables", { method: "POST", body: { game: "liar",
                rules: { six_up: true }, seats: [{ bot: null }, { bot: "random" }] } });
        } catch (e) {
            const en = errorText(e.code, e.params, e.message);
            setLang("ja");
            const ja = errorText(e.code, e.params, e.message);
            setLang("en");
            return [e.code, en, ja];
        }
        return null; }""")
    assert said == ["bad_rules", "6-up needs J-back: tick J-back too, or untick 6-up.",
                    "6上がりにはJバックが必要です。Jバックもチェックするか、6上がりを外してください。"]
    # A table made with Revolution ticked has what it needs.
    create_table(page, "liar", "Mika", ["bot:random", "bot:random"], {"revolution": True})
    page.wait_for_selector("#flags-row #flag-revolution")


def test_counts_and_rate_lock_said_in_words(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    said = page.evaluate("""async () => {
        const { countsText, lockedRate } = await import("/js/liar.js");
        const lock = (order, rate) => lockedRate({ bound: true, order, field: [{ rate }] });
        return [countsText([...Array(13).keys()].map((i) => i + 1)), countsText([3]),
                countsText([1, 2, 4]), lock("normal", "8"), lock("reversed", "8"),
                lock("normal", "2")]; }""")
    assert said == ["Play 1 to 13 cards.", "Play exactly 3 cards.", "Cards you may play: 1, 2, 4.",
                    "9", "7", None]


@pytest.fixture
def slow_bots_server() -> Iterator[LiveServer]:
    """Bots that think for an hour of the server's clock, which only the test moves."""
    server = LiveServer(deal_seed=17, clock=SteppedClock(), bot_delay=3600)
    server.start()
    yield server
    server.stop()


def test_fast_forward_plays_the_bots_out_at_once(new_page: Any,
                                                 slow_bots_server: LiveServer) -> None:
    """Out of a Bluff game with only bots left, Fast-forward makes them play at once: the
    game ends though the server's clock never reaches the end of a bot's first hour."""
    page = new_page()
    clock = slow_bots_server.clock
    create_table(page, "bluff", "Mika", ["bot:random"] * 4, {"max_cards": 1},
                 base=slow_bots_server.url)
    start(page)
    for _ in range(60):
        if page.locator("#hurry:not([hidden])").count():
            break
        assert page.get_attribute("body", "data-status") != "finished", "never out"
        before = state_n(page)
        if page.locator(".turn.yours").count():
            # the strongest call there is: the next player can only challenge it
            depth = 0
            while page.locator("#picker").count() and page.locator("#make-call").is_disabled():
                page.locator(".pick-step").nth(depth).locator("button").last.click()
                depth += 1
            page.click("#make-call" if page.locator("#picker").count() else "#challenge")
        else:
            clock.advance(5 * 3600)  # past a bot's thought (and the pause after a reveal)
        wait_after(page, before)
    hurry = page.locator("#hurry")
    expect(hurry).to_be_visible()
    assert page.inner_text("#hurry") == "Fast-forward"
    shot(page, "37-fast-forward-offered")
    hurry.click()
    page.wait_for_selector("body[data-status=finished]", timeout=30_000)
    expect(hurry).to_be_hidden()


def test_big_moments_show_and_respect_reduced_motion(new_page: Any) -> None:
    page = new_page(size=(1366, 768))
    create_table(page, "liar", "Mika", ["bot:random", "bot:random"],
                 {"multi": True, "revolution": True, "binding": True, "eight_cut": True,
                  "jack_back": True})
    start(page)
    page.wait_for_selector("#flags-row:not([hidden])")
    assert page.get_attribute("#sound", "aria-pressed") == "false"  # sound is off at first
    # a rule waiting is an outline, a rule in force is filled: not alike
    looks = page.locator("#flags-row .flag").evaluate_all("""els => els.map(e => [
        e.classList.contains("on"), getComputedStyle(e).borderStyle,
        e.getAttribute("aria-label")])""")
    assert len(looks) == 4
    for on, border, label in looks:
        assert border == ("solid" if on else "dashed")
        assert (": off." in label) != on
    show = """async ([text, detail]) => {
        const { bigMoment } = await import("/js/motion.js");
        bigMoment(document.getElementById("moment"), text, detail, "revolution");
        return document.getAnimations()
            .filter((a) => a.effect?.target?.classList?.contains("moment")).length; }"""
    assert page.evaluate(show, ["Revolution!", ""]) == 1  # it pops
    expect(page.locator("#moment .moment")).to_be_visible()
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(show, ["Rate lock!", "next: 9"]) == 0  # it only shows
    expect(page.locator("#moment .moment")).to_contain_text("next: 9")
    shot(page, "38-big-moment", axe=False)  # (still: a moment seen mid-fade is half there)
    page.wait_for_selector("#moment .moment", state="detached")
    # Cards in flight pass under the reveal, the results and the header, never over them.
    layers = page.evaluate("""() => {
        const card = document.createElement("span");
        card.className = "card back small flying";
        document.body.appendChild(card);
        const z = (e) => Number(getComputedStyle(e).zIndex);
        const out = [z(card), z(document.getElementById("reveal-layer")),
                     z(document.getElementById("results")), z(document.querySelector(".topbar"))];
        card.remove();
        return out; }""")
    flying, *above = layers
    assert all(flying < z for z in above), layers


def _eight_when_offered(page: Any, rng: random.Random) -> None:
    """Declare 8 whenever the controls offer it (as many cards as a play needs), else any
    move."""
    eight = page.locator("#rates button", has_text=re.compile(r"^8$"))
    if not (eight.count() and page.locator("#play").count()):
        liar_turn(page, rng, doubt=0.0)
        return
    before = state_n(page)
    eight.click()
    count = int((page.get_attribute("#play", "data-counts") or "1").split()[0])
    for card in page.locator("#hand button.card").all()[:count]:
        card.click()
    page.click("#play")
    wait_after(page, before)


def test_big_moments_come_from_the_game_itself(new_page: Any) -> None:
    """Not only the animation: a real game's play brings the word over the felt (an 8
    declared with 8-cut on), whatever the deal. (Plays heard in a catch-up, e.g. a bot's
    before the page connected, bring none: they are past.)"""
    page = new_page(size=(1366, 768))
    page.add_init_script("""window.moments = [];
        document.addEventListener("DOMContentLoaded", () => {
          const layer = document.getElementById("moment");
          if (!layer) return;
          new MutationObserver(() => {
            for (const m of layer.querySelectorAll(".moment")) window.moments.push(m.textContent);
          }).observe(layer, { childList: true });
        });""")
    for _ in range(6):  # a game can end before Mika is offered an 8: then another
        create_table(page, "liar", "Mika", ["bot:random", "bot:random"],
                     {"multi": True, "eight_cut": True})
        start(page)
        play_out(page, _eight_when_offered, limit_s=180.0)
        if any("8-cut" in text for text in page.evaluate("window.moments")):
            return
    pytest.fail("no 8-cut moment in six games where Mika declared 8 whenever offered")


def assert_no_english(page: Any) -> None:
    assert english_left(page) == []


def test_japanese_review_and_chart_have_no_english(new_page: Any,
                                                    review_server: LiveServer) -> None:
    """Bot names, the review panel, the chart's legend, the moves: all in Japanese; and the
    replay's hands are on screen at 1366x768."""
    page = new_page(locale="ja-JP", size=(1366, 768))
    review_a_bot_game(page, review_server.url, at_results=assert_no_english)
    assert page.locator("#open-panel").is_hidden()  # a table's game: no file picker on top
    assert page.evaluate(IN_VIEW, "#replay-hands")
    legend = page.inner_text(".review-legend")
    assert english_left(page, ".review-legend") == [] and "（" in legend  # "ハナ（ふつう）"
    assert english_left(page) == []
    page.click("#forward")
    assert english_left(page) == []
    page.keyboard.press("End")
    assert english_left(page) == []
    shot(page, "39-review-ja")


def test_japanese_home_and_rules_pages_have_no_english(new_page: Any) -> None:
    page = new_page(locale="ja-JP")
    page.goto("/")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#house-rules").evaluate("d => { d.open = true; }")
    page.select_option("#seat-1", "friend")  # the turn clock shows too
    for game in ("bluff", "liar"):
        page.check(f"input[name=game][value={game}]")
        assert english_left(page) == [], game
    page.goto("/rules.html")
    page.wait_for_selector("body[data-ready='1']")
    # (keys are named as their caps are printed: <kbd>Enter</kbd>, <kbd>Tab</kbd>; the
    # notation in <code> is RULES.md Part 3's one notation, option names included, typed
    # and read as is in both languages; a core's refusal, quoted lang="en", is verbatim)
    text = page.evaluate("""() => { const copy = document.body.cloneNode(true);
        copy.querySelectorAll("kbd, code, [lang=en], script").forEach((k) => k.remove());
        return copy.textContent; }""")
    assert sorted(set(LATIN.findall(text)) - ALLOWED_LATIN) == []
