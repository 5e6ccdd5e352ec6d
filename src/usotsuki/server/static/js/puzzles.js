// Puzzles (?game=bluff|liar): a position from the expert's games, shown as its seat saw it
// (its own hand, the table, the calls or the field); the moves the expert weighed as
// choices; the verdict, the best move and the rating's change. Rated mode moves your
// puzzle rating (kept on the server for your session, guest or account); streak mode
// serves harder and harder puzzles until the first miss.
import { api, me } from "./api.js";
import { callText, cardEl, liarActionText } from "./cards.js";
import { el, rerender } from "./dom.js";
import { errorText, initPage, onLangChange, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const asked = new URLSearchParams(location.search);
const game = ["bluff", "liar"].includes(asked.get("game")) ? asked.get("game") : "bluff";
const SEEN_KEY = `usotsuki.puzzles.seen.${game}`;
const SEEN_MAX = 200;

let mode = asked.get("mode") === "streak" ? "streak" : "rated";
let puzzle = null; // the shown puzzle
let verdict = null; // the server's answer to our pick
let streak = 0; // solved in the running streak
let summary = null; // {puzzles, you: {rating, attempts, best_streak}}

function seen() {
  try { const list = JSON.parse(localStorage.getItem(SEEN_KEY) || "[]"); return Array.isArray(list) ? list : []; } catch { return []; }
}
function remember(id) {
  localStorage.setItem(SEEN_KEY, JSON.stringify([...seen().filter((x) => x !== id), id].slice(-SEEN_MAX)));
}

function moveText(action) { return game === "bluff" && action !== "challenge" ? callText(action) : liarActionText(action); }
function pct(x) { return x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`; }
function seatName(s) { return s === puzzle.seat ? t("puzzle.you") : t("puzzle.seat", { n: s }); }

function seatsList(view) {
  return view.hand_sizes.map((n, s) => {
    const lives = game === "bluff" ? (n ? t("puzzle.lives", { n: view.max_cards - view.losses[s] }) : t("puzzle.out")) : "";
    return el("li", { class: s === puzzle.seat ? "you" : "" },
      `${seatName(s)}: ${t("puzzle.cards", { n })}${lives ? ` · ${lives}` : ""}`);
  });
}

function tableState(view) {
  if (game === "bluff") {
    if (!view.calls.length) return [el("p", {}, t("puzzle.noCall"))];
    return [el("p", {}, t("puzzle.calls")),
      el("ol", { class: "puzzle-field" }, view.calls.map((c) => el("li", {}, `${seatName(c.seat)}: ${callText(c.call)}`)))];
  }
  const parts = [el("p", {}, t("puzzle.stock", { n: view.stock_size }))];
  if (view.revolution) parts.push(el("p", {}, el("strong", {}, t("puzzle.revolution"))));
  if (!view.field.length) parts.push(el("p", {}, t("puzzle.fieldEmpty")));
  else {
    parts.push(el("p", {}, t("puzzle.field")));
    parts.push(el("ol", { class: "puzzle-field" }, view.field.map((p) =>
      el("li", {}, `${seatName(p.seat)}: ${t("puzzle.play", { n: p.count, rate: p.rate === "T" ? "10" : p.rate })}`))));
  }
  return parts;
}

function verdictText() {
  if (!verdict) return "";
  const mine = verdict.value === null ? "" : ` (${pct(verdict.value)})`;
  const head = verdict.solved
    ? t("puzzle.right", { move: moveText(verdict.best), value: pct(verdict.best_value), points: Math.round(verdict.margin * 100) })
    : t("puzzle.wrong", { move: moveText(verdict.move), mine, best: moveText(verdict.best), value: pct(verdict.best_value) });
  const themes = verdict.themes.map((x) => t(`puzzle.theme.${x}`)).join(", ");
  const parts = [head];
  if (themes) parts.push(t("puzzle.themes", { themes }));
  if (verdict.rating_after) {
    const change = Math.round(verdict.rating_after.rating - verdict.rating_before.rating);
    parts.push(t("puzzle.ratingChange", { rating: Math.round(verdict.rating_after.rating), change: change >= 0 ? `+${change}` : String(change) }));
  }
  if (mode === "streak") parts.push(verdict.solved ? t("puzzle.streakOn", { n: streak }) : t("puzzle.streakOver", { n: streak }));
  return parts.join(" ");
}

function render() {
  document.title = `${t("puzzle.title")} — ${t(`game.${game}`)} — usotsuki 嘘つき`;
  for (const g of ["bluff", "liar"]) {
    const tab = $(`tab-${g}`);
    tab.href = `/puzzles.html?game=${g}${mode === "streak" ? "&mode=streak" : ""}`;
    if (g === game) tab.setAttribute("aria-current", "page"); else tab.removeAttribute("aria-current");
  }
  $("mode-rated").setAttribute("aria-pressed", String(mode === "rated"));
  $("mode-streak").setAttribute("aria-pressed", String(mode === "streak"));
  const you = summary && summary.you;
  $("my-rating").textContent = you
    ? t("puzzle.myRating", { rating: Math.round((verdict?.rating_after || you.rating).rating), attempts: you.attempts })
    : "";
  $("my-streak").textContent = you ? t("puzzle.bestStreak", { n: you.best_streak }) : "";
  if (!puzzle) return;
  $("puzzle").hidden = false;
  $("puzzle").dataset.id = puzzle.id;
  $("question").textContent = t(`puzzle.q.${puzzle.question}`);
  $("puzzle-meta").textContent = t("puzzle.meta", { id: puzzle.id, rating: puzzle.rating });
  rerender($("seats"), seatsList(puzzle.view));
  rerender($("table-state"), tableState(puzzle.view));
  rerender($("hand"), (puzzle.view.hand || []).map((c) => cardEl(c)));
  rerender($("choices"), puzzle.choices.map((action) => el("button", {
    type: "button", class: verdict && verdict.move === action ? "secondary picked" : "secondary",
    dataset: { action }, disabled: verdict !== null, onclick: () => pick(action),
  }, moveText(action))));
  $("verdict").textContent = verdictText();
  $("verdict").className = verdict ? (verdict.solved ? "right" : "wrong") : "";
  $("next").hidden = verdict === null;
  $("next").textContent = mode === "streak" && verdict && !verdict.solved ? t("puzzle.newStreak") : t("puzzle.next");
}

function fail(err) {
  $("notice").textContent = errorText(err.code, err.params, err.message);
  $("notice").hidden = false;
}

async function loadSummary() {
  try { summary = await api(`/api/puzzles/${game}`); } catch (err) { fail(err); }
}

async function next() {
  verdict = null;
  const query = new URLSearchParams({ seen: seen().join(",") });
  if (mode === "streak") query.set("streak", String(streak));
  try {
    puzzle = await api(`/api/puzzles/${game}/next?${query}`);
    $("notice").hidden = true;
  } catch (err) { fail(err); }
  render();
  $("question").focus?.();
}

async function pick(action) {
  if (verdict || !puzzle) return;
  try {
    verdict = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`, { method: "POST", body: { move: action, mode } });
  } catch (err) { fail(err); return; }
  remember(puzzle.id);
  if (mode === "streak") {
    if (verdict.solved) streak += 1;
    else {
      try { const r = await api(`/api/puzzles/${game}/streak`, { method: "POST", body: { solved: streak } }); if (summary?.you) summary.you.best_streak = r.best_streak; } catch (err) { fail(err); }
    }
  } else if (verdict.rating_after && summary?.you) {
    summary.you.rating = verdict.rating_after;
    summary.you.attempts += 1;
  }
  render();
}

function setMode(next_) {
  if (mode === next_) return;
  mode = next_;
  streak = 0;
  history.replaceState(null, "", `/puzzles.html?game=${game}${mode === "streak" ? "&mode=streak" : ""}`);
  next();
}

async function main() {
  initPage();
  $("question").tabIndex = -1;
  $("mode-rated").addEventListener("click", () => setMode("rated"));
  $("mode-streak").addEventListener("click", () => setMode("streak"));
  $("next").addEventListener("click", () => {
    if (mode === "streak" && verdict && !verdict.solved) streak = 0;
    next();
  });
  onLangChange(render);
  await me().catch(() => null); // a session (a guest on a first visit): ratings are kept
  await loadSummary();
  await next();
  document.body.dataset.ready = "1";
}

main();
