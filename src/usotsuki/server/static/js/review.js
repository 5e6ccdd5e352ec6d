// The game review in the replay viewer: the server judges every decision with the
// expert's search (docs/analysis.md); this module asks for it, shows its progress, then
// the marks in a move list, the odds and best move at the current step, a win-chance
// chart (inline SVG, drawn here) and each player's summary card.
// Hooks: replay.js calls attachReview() once a replay is shown and renderReview(i) at
// each step; everything else lives here and in css/review.css.
import { api } from "./api.js";
import { callText, liarActionText } from "./cards.js";
import { el, rerender } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { seatLabel } from "./people.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
const POLL_MS = 600;
const SYMBOL = { inaccuracy: "?!", mistake: "?", blunder: "??" };

let ctx = null; // {data, go, source: {table, game} | {record}, you: the reader's seat or null}
let analysis = null;
let index = 0;
let timer = null;
let failed = "";

const $ = (id) => document.getElementById(id);

export function attachReview({ data, go, source, auto = false, you = null }) {
  ctx = { data, go, source, you, progress: auto ? { done: 0, total: null } : null };
  analysis = null;
  failed = "";
  clearTimeout(timer);
  draw();
  if (auto) start();
}

export function renderReview(i) {
  index = i;
  if (ctx) draw();
}

onLangChange(() => { if (ctx) draw(); });

async function start() {
  if (!ctx) return;
  failed = "";
  const { source } = ctx;
  try {
    // A record file is posted as its exact bytes (a Liar seed above 2^53 survives).
    const answer = source.raw !== undefined
      ? await api("/api/review", { method: "POST", raw: source.raw })
      : source.record
      ? await api("/api/review", { method: "POST", body: source.record })
      : await api(`/api/tables/${encodeURIComponent(source.table)}/games/${encodeURIComponent(source.game)}/review`);
    if (answer.status === "done") {
      analysis = answer.analysis;
      document.body.dataset.review = "done";
    } else {
      ctx.progress = answer;
      timer = setTimeout(start, POLL_MS);
    }
  } catch (err) {
    failed = err.message;
  }
  draw();
}

function moveText(action) {
  if (!ctx) return action;
  if (ctx.data.game === "bluff") return action === "challenge" ? t("bluff.challenge") : callText(action);
  return liarActionText(action);
}

// A player's name as the table shows it: a bot's in the reader's language ("ハナ（むずかしい）"),
// the reader's own seat "You".
function nameOf(seat) { return seatLabel(analysis.names, seat, ctx?.you); }

function pct(x) { return x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`; }

// Values are a chance to win the game in both games (docs/analysis.md): percent.
function value(x) { return pct(x); }

function accuracy(x) { return x === null || x === undefined ? "–" : `${Math.round(x)}%`; }

function draw() {
  const box = $("review-panel");
  if (!box) return;
  if (!analysis) {
    const parts = [el("h2", {}, t("review.title"))];
    if (ctx.progress) {
      const { done, total, status, position } = ctx.progress;
      const said = status === "queued" ? t("review.queued", { position }) : t("review.working", { done, total: total ?? "…" });
      parts.push(el("p", { id: "review-progress" }, said),
        el("progress", { max: total || 1, value: done || 0 }));
    } else {
      parts.push(el("p", { class: "muted" }, t("review.intro")),
        el("button", { type: "button", class: "primary", id: "review-start", onclick: () => { ctx.progress = { done: 0, total: null }; draw(); start(); } }, t("review.start")));
    }
    if (failed) parts.push(el("p", { class: "error", role: "alert" }, failed));
    rerender(box, parts);
    return;
  }
  rerender(box, [
    el("h2", {}, t("review.title")),
    stepBox(),
    chart(),
    el("div", { class: "review-cards", id: "review-summary" }, analysis.summary.map(card)),
    moveList(),
    el("p", { class: "muted review-note" }, t(`review.unit.${analysis.game}`), " ", t("review.marksNote")),
  ]);
}

function decisionAt(i) { return analysis.decisions.find((d) => d.frame === i) || null; }

function stepBox() {
  const d = decisionAt(index);
  if (!d) return el("div", { class: "review-step", id: "review-step" }, el("span", { class: "muted" }, t("review.noDecision")));
  const name = nameOf(d.seat);
  const lines = [el("strong", {}, `${name}: ${moveText(d.action)}`), " ", badge(d)];
  const odds = [];
  if (d.p_current !== null) odds.push(t(`review.pCurrent.${analysis.game}`, { p: pct(d.p_current) }));
  if (d.p_action !== null) odds.push(t("review.pAction", { p: pct(d.p_action) }));
  const body = [el("p", {}, lines)];
  if (odds.length) body.push(el("p", { class: "review-odds" }, odds.join(" · ")));
  if (d.best !== null) {
    body.push(el("p", {}, t("review.best", { move: moveText(d.best) }), " · ",
      t("review.valueLost", { value: value(d.value), error: value(d.error), lost: value(d.lost) })));
  } else {
    body.push(el("p", { class: "muted" }, t("review.forced")));
  }
  return el("div", { class: "review-step", id: "review-step" }, body);
}

function badge(d) {
  const out = [];
  if (d.mark && d.mark !== "good") out.push(el("span", { class: `mark mark-${d.mark}` }, `${SYMBOL[d.mark]} ${t(`review.mark.${d.mark}`)}`));
  if (d.luck) out.push(el("span", { class: `mark luck-${d.luck}` }, t(`review.luck.${d.luck}`)));
  return out;
}

function card(s) {
  const claims = analysis.game === "bluff" ? "review.calls" : "review.plays";
  const tests = analysis.game === "bluff" ? "review.challenges" : "review.doubts";
  return el("section", { class: "review-card" },
    el("h3", {}, el("span", { class: "swatch", dataset: { seat: String(s.seat) } }), nameOf(s.seat)),
    el("dl", {},
      el("dt", {}, t("review.accuracy")), el("dd", {}, accuracy(s.accuracy)),
      el("dt", {}, t("review.marks")), el("dd", {}, `?! ${s.marks.inaccuracy} · ? ${s.marks.mistake} · ?? ${s.marks.blunder}`),
      el("dt", {}, t("review.bluffRate")), el("dd", {}, `${pct(s.bluff_rate)} (${s.bluffs}/${s.claims} ${t(claims)})`),
      el("dt", {}, t("review.success")), el("dd", {}, `${pct(s.test_success)} (${s.tests_won}/${s.tests} ${t(tests)})`),
      el("dt", {}, t("review.luck")), el("dd", {}, (s.luck >= 0 ? "+" : "") + s.luck.toFixed(2))));
}

// Every move, the marked ones badged (the replay's move list with the review's marks).
function moveList() {
  const marked = analysis.decisions.filter((d) => (d.mark && d.mark !== "good") || d.luck).length;
  return el("div", { class: "review-moves" },
    el("h3", {}, t("review.marked", { n: marked })),
    el("ol", { id: "review-moves" }, analysis.decisions.map((d) => el("li", { class: `${d.frame === index ? "current" : ""}${d.mark && d.mark !== "good" ? ` marked-${d.mark}` : ""}` },
      el("button", { type: "button", class: "link-button", onclick: () => ctx.go(d.frame) },
        `${t("replay.step", { i: d.frame + 1, n: analysis.frames })} · ${nameOf(d.seat)}: ${moveText(d.action)}`),
      " ", badge(d)))));
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function chart() {
  const w = 640, h = 180, pad = 24;
  const series = analysis.win;
  const n = Math.max(1, series.length - 1);
  const x = (i) => pad + (i / n) * (w - 2 * pad);
  const y = (p) => h - pad - p * (h - 2 * pad);
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "review-chart", id: "review-chart", role: "img" });
  const title = svg("title", {});
  title.textContent = t(`review.chart.${analysis.game}`);
  root.append(title);
  for (const p of [0, 0.5, 1]) {
    root.append(svg("line", { x1: pad, x2: w - pad, y1: y(p), y2: y(p), stroke: "#ccc", "stroke-width": 1 }));
    const label = svg("text", { x: 2, y: y(p) + 4, "font-size": 10, fill: "#666" });
    label.textContent = `${p * 100}%`;
    root.append(label);
  }
  analysis.names.forEach((_, seat) => {
    const points = series.map((wins, i) => `${x(i).toFixed(1)},${y(wins[seat]).toFixed(1)}`).join(" ");
    root.append(svg("polyline", { points, fill: "none", stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2 }));
  });
  for (const d of analysis.decisions) {
    if (d.mark !== "mistake" && d.mark !== "blunder") continue;
    root.append(svg("circle", { cx: x(d.frame), cy: y(series[d.frame][d.seat]), r: d.mark === "blunder" ? 4 : 3, fill: COLOURS[d.seat % COLOURS.length], stroke: "#000" }));
  }
  root.append(svg("line", { x1: x(index), x2: x(index), y1: pad / 2, y2: h - pad, stroke: "#000", "stroke-dasharray": "3 3" }));
  root.addEventListener("click", (e) => {
    const box = root.getBoundingClientRect();
    const i = Math.round(((e.clientX - box.left) / box.width * w - pad) / (w - 2 * pad) * n);
    ctx.go(Math.max(0, Math.min(n, i)));
  });
  const legend = el("div", { class: "review-legend" }, analysis.names.map((_, seat) => el("span", {},
    el("span", { class: "swatch", dataset: { seat: String(seat) } }), nameOf(seat))));
  return el("figure", { class: "review-figure" }, root, el("figcaption", {}, t(`review.chart.${analysis.game}`)), legend);
}
