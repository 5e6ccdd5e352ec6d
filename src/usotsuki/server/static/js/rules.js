// The rules page: every numbered rule (GET /api/rules) with its text and its worked
// example as the rules cores played it: the hands drawn as cards, each step in words, the
// move the rules refuse and what is legal. Messages that cite a code link to #CODE here.
import { api } from "./api.js";
import { callText, cardEl, rankLabel } from "./cards.js";
import { el, rerender } from "./dom.js";
import { currentLang, initPage, onLangChange, sentences, t } from "./i18n.js";

const GROUPS = [["B", "rules.groupB"], ["L", "rules.groupL"], ["O", "rules.groupO"]];
let book = null;

function seat(n) { return t("rules.seat", { n }); }

function lang() { return currentLang() === "ja" ? "ja" : "en"; }

// The rule's text: HTML the server made from the rule book's Markdown (raw HTML in it is
// escaped there), its cited codes already links to this page.
function textEl(rule) {
  const box = el("div", { class: "rule-text", lang: lang() });
  box.innerHTML = rule.html[lang()];
  return box;
}

// A title, line or caption: plain words, with the notation in it (option names, calls,
// actions: RULES.md Part 3) written in backticks, shown as code.
function said(text) {
  return text.split("`").map((piece, i) => (i % 2 ? el("code", {}, piece) : piece));
}

// A core's message with each rule code it cites linked to that rule on this page.
function linkedCodes(text) {
  return text.split(/\b([BLO][1-9][0-9]?)\b/).map((piece, i) =>
    (i % 2 && book.some((r) => r.code === piece) ? el("a", { href: `#${piece}` }, piece) : piece));
}

function cardsEl(cards) {
  return el("span", { class: "hand rule-hand" }, cards.map((c) => cardEl(c, { small: true })));
}

function eventText(e) {
  switch (e.type) {
    case "called": return t("ev.called", { name: seat(e.seat), call: callText(e.call) });
    case "challenged": return sentences(t("ev.challenged", { name: seat(e.challenger), other: seat(e.caller) }),
      t(e.call_true ? "ev.callTrue" : "ev.callFalse", { call: callText(e.call) }), t("ev.loses", { name: seat(e.loser) }),
      e.eliminated ? t("ev.out", { name: seat(e.loser) }) : null);
    case "played": return t("ev.played", { name: seat(e.seat), n: e.count, rate: rankLabel(e.rate) });
    case "passed": return t("ev.passed", { name: seat(e.seat) });
    case "drew": return t("ev.drew", { name: seat(e.seat), n: e.count });
    case "doubted": return sentences(t("ev.doubted", { name: seat(e.doubter), other: seat(e.doubted) }),
      t(e.truthful ? "ev.truthful" : "ev.lie", { rate: rankLabel(e.rate) }));
    case "accepted": return t("ev.accepted", { name: seat(e.seat) });
    case "flushed": return t("ev.flushed", { n: e.count });
    case "order_changed": return t("ev.order_changed", { order: t(e.reversed ? "liar.orderWord.reversed" : "liar.orderWord.normal"), cause: t(`cause.${e.cause}`) });
    case "bound": return t("ev.bound", { rate: rankLabel(e.rate) });
    case "gave": return t("ev.gave", { name: seat(e.giver), n: e.count, other: seat(e.receiver) });
    default: return null;
  }
}

// Cards an event shows face up: the cards played, drawn, given, or revealed by a doubt.
function eventCards(e) {
  if (["played_cards", "drew_cards", "gave_cards", "doubted"].includes(e.type)) return e.cards;
  return null;
}

function eventsEl(events) {
  const items = [];
  for (const e of events) {
    const words = eventText(e);
    const cards = eventCards(e);
    if (words) items.push(el("span", {}, words, " "));
    if (cards && e.type !== "doubted") items.push(cardsEl(cards));
    else if (cards) items.push(cardsEl(cards), " ");
  }
  return items;
}

function dealEl(deal, number, game) {
  const heading = t(game === "bluff" ? "rules.round" : "rules.game", { n: number });
  const rows = deal.hands.map((hand, s) => el("li", {}, el("strong", {}, seat(s)), " ",
    hand.length ? cardsEl(hand) : el("span", { class: "muted" }, t("seat.out"))));
  if (deal.stock !== undefined) rows.push(el("li", {}, el("strong", {}, t("rules.stock")), " ", t("seat.cards", { n: deal.stock })));
  const extra = eventsEl(deal.events);
  return [el("h5", {}, heading), el("ul", { class: "rule-deal" }, rows), extra.length ? el("p", {}, extra) : null];
}

function legalText(game, legal) {
  if (game === "bluff") return legal.length === 1 ? t("rules.onlyChallenge") : t("rules.calls", { n: legal.length });
  const parts = [];
  if (legal.play) {
    const counts = legal.play.counts;
    parts.push(t("rules.legalPlay", { n: counts.length === 1 ? counts[0] : counts.join("/"), rates: legal.play.rates.map(rankLabel).join(" ") }));
  }
  for (const word of ["pass", "doubt", "accept"]) if (legal[word]) parts.push(t(`rules.${word}`));
  return parts.join(t("rules.or"));
}

function exampleEl(rule) {
  const ex = rule.example;
  const parts = [el("p", { class: "rule-caption" }, said(rule.caption[lang()]))];
  const options = Object.entries(ex.rules).filter(([, v]) => v !== false);
  if (options.length) {
    parts.push(el("p", { class: "muted" }, t("rules.options"), " ",
      options.map(([k, v]) => (v === true ? t(`opt.${k}`) : `${t(`opt.${k}`)} ${v}`)).join(", ")));
  }
  // Each deal (its hands drawn), then the actions that follow it, in order.
  let list = null;
  ex.steps.forEach((step, i) => {
    ex.deals.forEach((d, n) => { if (d.step === i) { parts.push(...dealEl(d, n + 1, ex.game)); list = null; } });
    if (!list) { list = el("ol", { class: "rule-steps" }); parts.push(list); }
    list.append(el("li", {}, el("code", {}, step.action), " ", eventsEl(step.events)));
  });
  ex.deals.forEach((d, n) => { if (d.step >= ex.steps.length) parts.push(...dealEl(d, n + 1, ex.game)); });
  if (ex.refused) {
    const who = ex.refused.seat === null ? t("rules.theRules") : seat(ex.refused.seat);
    // (the action in the notation of RULES.md Part 3, as typed: code in running text)
    const tried = ex.refused.action && t("rules.refused", { name: who }).split("{action}")
      .map((piece, i) => (i ? [el("code", {}, ex.refused.action), piece] : piece));
    parts.push(el("p", { class: "rule-refused" }, tried || t("rules.refusedRecord"),
    " ", el("q", { lang: "en" }, linkedCodes(ex.refused.message))));
  }
  if (ex.standings) {
    parts.push(el("p", {}, t("rules.standings"), " ",
      ex.standings.map((place, i) => `${i + 1}. ${place.map(seat).join(", ")}`).join(" · ")));
  }
  if (ex.legal && ex.to_move !== null) parts.push(el("p", {}, t("rules.legal", { name: seat(ex.to_move) }), " ", legalText(ex.game, ex.legal)));
  return el("div", { class: "rule-example" }, el("h4", {}, t("rules.example")), parts);
}

function render() {
  if (!book) return;
  const index = GROUPS.map(([letter, key]) => [el("h3", {}, t(key)),
    el("dl", { class: "rule-index" }, book.filter((r) => r.code.startsWith(letter)).map((r) => [
      el("dt", {}, el("a", { href: `#${r.code}` }, r.code, " ", said(r.title[lang()]))),
      el("dd", {}, said(r.line[lang()]))]))]);
  rerender(document.getElementById("rule-index"), index);
  rerender(document.getElementById("rule-entries"), book.map((r) =>
    el("article", { id: r.code, class: "rule-entry", tabindex: "-1" },
      el("h3", {}, `${r.code} `, said(r.title[lang()])), textEl(r), exampleEl(r))));
  const wanted = decodeURIComponent(location.hash.slice(1)).toUpperCase();
  const target = wanted && document.getElementById(wanted);
  if (target) { target.scrollIntoView(); target.focus({ preventScroll: true }); }
}

initPage();
onLangChange(render);
api("/api/rules", { retry: true }).then((answer) => { book = answer.rules; render(); })
  .catch(() => rerender(document.getElementById("rule-entries"), el("p", { role: "alert" }, t("err.network"))))
  .finally(() => { document.body.dataset.ready = "1"; });
