// The lessons (/learn.html): their list, and one lesson (?lesson=ID) played on the
// server's engine. The page keeps only the moves its tasks accepted; every answer comes
// from POST /api/lessons/{id}, which replays them and judges the new try. Finished
// lessons are remembered in this browser (localStorage).
import { api } from "./api.js";
import { bluffCenter, bluffControls } from "./bluff.js";
import { cardEl } from "./cards.js";
import { describeEvent } from "./describe.js";
import { el, rerender } from "./dom.js";
import { currentLang, errorText, initPage, onLangChange, sentenceGap, t } from "./i18n.js";
import { liarCenter, liarControls, liarFlags, resetIfNew, selectable, selectedCards, toggleCard } from "./liar.js";

const $ = (id) => document.getElementById(id);
const DONE = "usotsuki.lessons.done";
const lessonId = new URLSearchParams(location.search).get("lesson");
let list = null; // GET /api/lessons
let data = null; // the last answer for the lesson
let answers = [];
let feedback = null; // the verdict on a refused try, shown until the next one
let busy = false;

export function doneLessons() {
  try {
    const ids = JSON.parse(localStorage.getItem(DONE) || "[]");
    return Array.isArray(ids) ? ids.filter((x) => typeof x === "string") : [];
  } catch (e) { return []; }
}

function markDone(id) {
  const ids = doneLessons();
  if (!ids.includes(id)) localStorage.setItem(DONE, JSON.stringify([...ids, id]));
}

const said = (text) => text[currentLang()] ?? text.en;

function notice(err) {
  $("notice").textContent = err ? errorText(err.code, err.params, err.message) : "";
  $("notice").hidden = !err;
}

// ---- the list ---------------------------------------------------------------------

function renderIndex() {
  document.title = `${t("learn.heading")} — usotsuki 嘘つき`;
  if (!list) return;
  const done = doneLessons();
  for (const game of ["bluff", "liar"]) {
    const lessons = list.games[game];
    const next = lessons.find((x) => !done.includes(x.id));
    rerender($(`lessons-${game}`), lessons.map((x) => el("li", { class: done.includes(x.id) ? "done" : "", dataset: { lesson: x.id } },
      el("a", { href: `/learn.html?lesson=${encodeURIComponent(x.id)}` }, said(x.title)),
      done.includes(x.id) ? el("span", { class: "tick" }, el("span", { "aria-hidden": "true" }, " ✓"), el("span", { class: "sr-only" }, t("learn.finished"))) : null,
      x === next ? el("span", { class: "badge next" }, t("learn.upNext")) : null,
      el("p", { class: "muted" }, said(x.summary)))));
  }
}

// ---- one lesson -------------------------------------------------------------------

function names() { return data.lesson.names[currentLang()] ?? data.lesson.names.en; }

function who() {
  const seat = data.lesson.seat;
  const n = names();
  return { me: seat, name: (s) => (s === seat ? t("table.you") : n[s]), objectName: (s) => (s === seat ? t("table.youObject") : n[s]) };
}

// A challenge's or a doubt's cards face up, under its line.
function revealed(e) {
  const n = names();
  if (e.type === "challenged") {
    return el("ul", { class: "reveal-hands" }, e.hands.map((hand, seat) => (hand.length
      ? el("li", { class: "reveal-hand" }, el("span", { class: "who" }, seat === data.lesson.seat ? t("table.you") : n[seat]),
        el("span", { class: "cards" }, hand.map((c) => cardEl(c, { small: true })))) : null)));
  }
  if (e.type === "doubted") {
    return el("div", { class: "cards" }, e.cards.map((c) => cardEl(c, { small: true, highlight: c[0] === e.rate })));
  }
  return null;
}

function transcriptItems() {
  const items = [];
  for (const item of data.shown) {
    if (item.say) {
      items.push(el("li", { class: "say" }, said(item.say)));
      continue;
    }
    const lines = item.events.map((e) => [describeEvent(e, who()), e]).filter(([text]) => text);
    if (!lines.length) continue;
    items.push(el("li", { class: `move${item.seat === data.lesson.seat ? " mine" : ""}` },
      lines.map(([text, e]) => el("div", { class: `ev ev-${e.type}` }, text, revealed(e)))));
  }
  return items;
}

function send(action) {
  if (busy || !action.trim()) return;
  post(action.trim());
}

function center(view) {
  const ctx = { view, names: names(), me: data.lesson.seat };
  return data.lesson.game === "bluff" ? bluffCenter(ctx) : [el("div", { class: "flags" }, liarFlags(ctx)), ...liarCenter(ctx)];
}

function handEls(view) {
  const liar = data.lesson.game === "liar";
  const pick = liar && selectable(data.legal);
  const chosen = pick ? selectedCards() : [];
  return (view.hand || []).map((c) => cardEl(c, pick ? { button: true, selected: chosen.includes(c) } : {}))
    .map((card) => {
      if (pick) card.addEventListener("click", () => { toggleCard(card.dataset.card); renderLesson(); });
      return card;
    });
}

function controls(view) {
  if (!data.legal) return [];
  const stateKey = `${lessonId}:${answers.length}`;
  if (data.lesson.game === "bluff") {
    return bluffControls({ legal: data.legal, send, stateKey, redraw: renderLesson });
  }
  resetIfNew(stateKey);
  return liarControls({ view, legal: data.legal, send, names: names(), redraw: renderLesson });
}

function renderFeedback() {
  const box = $("feedback");
  if (!feedback) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  rerender(box,
    // The core's reason is English: in Japanese, the lesson's own words say it.
    feedback.reason && currentLang() === "en" ? el("p", { class: "reason" }, t("learn.refused", { reason: feedback.reason })) : null,
    feedback.explain ? el("p", { class: "explain" }, said(feedback.explain)) : null,
    el("p", { class: "muted" }, t("learn.again")));
}

function renderLesson() {
  if (!data) return;
  const lesson = data.lesson;
  document.title = `${said(lesson.title)} — ${t("learn.heading")} — usotsuki 嘘つき`;
  $("lesson-title").textContent = `${t(`game.${lesson.game}`)} · ${said(lesson.title)}`;
  // Each rule the lesson teaches, one click from the rule book (its code as the anchor).
  rerender($("lesson-codes"), t("learn.codes"), sentenceGap(), lesson.codes.map((code, i) => [i ? ", " : "",
    el("a", { href: `/rules.html#${code}` }, code)]));
  rerender($("transcript"), transcriptItems());
  $("transcript").scrollTop = $("transcript").scrollHeight;
  const view = data.view;
  rerender($("center"), view ? center(view) : []);
  $("task").textContent = data.task ? said(data.task.ask) : "";
  $("task").hidden = !data.task;
  $("hand-box").hidden = !view || !(view.hand || []).length;
  if (view) rerender($("hand"), handEls(view));
  rerender($("controls"), data.task && view ? controls(view) : []);
  $("controls").hidden = !data.task;
  $("typed").hidden = !data.task;
  renderFeedback();
  $("finished").hidden = !data.finished;
  const next = $("next");
  next.hidden = !lesson.next;
  if (lesson.next) next.href = `/learn.html?lesson=${encodeURIComponent(lesson.next)}`;
}

async function post(attempt) {
  busy = true;
  const body = { answers };
  if (attempt !== undefined) body.try = attempt;
  try {
    data = await api(`/api/lessons/${encodeURIComponent(lessonId)}`, { method: "POST", body, retry: true });
    answers = data.answers;
    feedback = data.verdict && !data.verdict.accepted ? data.verdict : null;
    if (data.finished) markDone(lessonId);
    notice(null);
    if (attempt !== undefined && data.verdict?.accepted) $("move").value = "";
  } catch (err) {
    notice(err);
  } finally {
    busy = false;
  }
  renderLesson();
  if (feedback) $("feedback").focus?.();
}

async function main() {
  initPage();
  if (lessonId) {
    $("lesson").hidden = false;
    $("typed").addEventListener("submit", (ev) => { ev.preventDefault(); send($("move").value); });
    onLangChange(renderLesson);
    await post();
  } else {
    $("index").hidden = false;
    onLangChange(renderIndex);
    try { list = await api("/api/lessons", { retry: true }); } catch (err) { notice(err); }
    renderIndex();
  }
  document.body.dataset.ready = "1";
}

main();
