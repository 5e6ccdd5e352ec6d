"""The rules page: each code with its worked example, in both languages, at 1366x768 and
on a phone; the links a refusal that cites codes carries."""

from __future__ import annotations

from typing import Any

from e2e_helpers import create_table, shot

NO_SIDEWAYS = "document.documentElement.scrollWidth <= innerWidth + 1"


def test_a_code_opens_at_its_rule_with_its_example(new_page: Any) -> None:
    page = new_page(locale="en-GB", size=(1366, 768))
    page.goto("/rules.html#O6")
    page.wait_for_selector("body[data-ready='1']")
    rule = page.locator("#O6")
    assert rule.is_visible() and page.evaluate("document.activeElement.id") == "O6"
    text = rule.inner_text()
    assert "O6 Binding (rate lock)" in text and "5 then 6 binds the field" in text
    assert "the field is bound: the play must declare 7" in text  # the engine's refusal
    assert rule.locator(".rule-hand .card").count() >= 6  # the hands drawn as cards
    # the codes a rule's text cites link to their rules on the page
    page.click("#B11 .rule-text a[href='#B2']")
    page.wait_for_function("location.hash === '#B2'")
    assert page.locator("#rule-index a[href='#L9']").count() == 1
    assert page.evaluate(NO_SIDEWAYS)
    shot(page, "rules-o6-1366")


def test_the_rules_in_japanese_on_a_phone(new_page: Any) -> None:
    page = new_page(locale="ja-JP", phone=True)
    page.goto("/rules.html#L9")
    page.wait_for_selector("body[data-ready='1']")
    text = page.locator("#L9").inner_text()
    assert "L9 ダウト" in text and "席1がK♣を9と宣言" in text
    assert "席2がダウト" in text or "ダウト" in page.locator("#L9 .rule-steps").inner_text()
    assert page.evaluate(NO_SIDEWAYS)
    shot(page, "rules-l9-ja-phone")
    page.click("#lang-switch")
    assert "L9 Doubt" in page.locator("#L9").inner_text()


def test_a_refusal_citing_codes_links_each(new_page: Any) -> None:
    page = new_page(locale="en-GB")
    page.goto("/rules.html")
    page.wait_for_selector("body[data-ready='1']")
    links = page.evaluate("""async () => {
        const { ruleLinks } = await import("/js/rulelinks.js");
        const node = ruleLinks(["B5", "B7"]);
        return [...node.querySelectorAll("a")].map(a => [a.textContent, a.getAttribute("href")]);
    }""")
    assert links == [["B5", "/rules.html#B5"], ["B7", "/rules.html#B7"]]
    assert page.evaluate("""async () => (await import("/js/rulelinks.js")).ruleLinks([])""") is None


def test_the_table_links_each_house_rule_to_its_rule(new_page: Any) -> None:
    page = new_page(locale="en-GB")
    create_table(page, "liar", "Alice", ["friend", "bot:random"],
                 {"multi": True, "binding": True})
    page.wait_for_selector("#rules-list")
    rules_list = page.locator("#rules-list")
    assert rules_list.locator("a[href='/rules.html#O6']").inner_text() == "O6"
    assert rules_list.locator("a[href='/rules.html#O1']").count() == 1
    assert rules_list.locator("a[href='/rules.html#O3']").count() == 0  # not in force
