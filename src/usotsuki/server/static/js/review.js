// The game review in the replay viewer: the server judges every decision with the
// expert's search (docs/analysis.md); this module asks for it, shows its progress, then
// the verdict at the current step (its odds, the best move and the other options), a
// win-chance chart (inline SVG, drawn here), the marked moves (all players' or only
// yours), "retry your mistakes" (the position before each of your marked moves, to find
// the best move yourself) and each player's summary card.
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
let onlyMine = false;
let retry = null; // {list: your marked decisions, at: which one, picked: action or null}
let heldAt = null; // the last step the replay shows while a move is retried unanswered

const $ = (id) => document.getElementById(id);

export function attachReview({ data, go, source, auto = false, you = null, hold = null }) {
  ctx = { data, go, source, you, hold, progress: auto ? { done: 0, total: null } : null };
  retry = null;
  heldAt = null;
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

// While a retried move is unanswered, what came after it stays hidden: the replay holds
// at the position (its later steps and moves), the chart stops there, and the marked
// moves list only the earlier ones.
function horizon() { return retry !== null && retry.picked === null ? retry.list[retry.at].frame - 1 : null; }

function draw() {
  const box = $("review-panel");
  if (!box) return;
  if (ctx.hold && heldAt !== horizon()) { // (the replay renders, then draws this again)
    heldAt = horizon();
    ctx.hold(heldAt);
    return;
  }
  // retrying a move: the other players' hands are hidden, as they were at the table
  for (const hand of document.querySelectorAll(".replay-hand")) {
    hand.classList.toggle("retry-hidden", retry !== null && hand.id !== `replay-seat-${ctx.you}`);
  }
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
    retry ? retryBox() : stepBox(),
    chart(),
    moveList(),
    el("div", { class: "review-cards", id: "review-summary" }, analysis.summary.map(card)),
    el("p", { class: "muted review-note" }, t(`review.unit.${analysis.game}`), " ", t("review.marksNote")),
  ]);
}

const isMarked = (d) => (d.mark && d.mark !== "good") || d.luck;
const isMistake = (d) => d.mark === "mistake" || d.mark === "blunder" || d.mark === "inaccuracy";

// Retry your mistakes: the position before each of your marked moves, the move hidden;
// the options the expert weighed there are the choices, and the review says how yours
// compares with the best (a choice within the best's error bar counts as the best).
function startRetry() {
  const list = analysis.decisions.filter((d) => d.seat === ctx.you && isMistake(d) && d.options.length > 1);
  if (!list.length) return;
  retry = { list, at: 0, picked: null };
  ctx.go(list[0].frame - 1);
}

function retryBox() {
  const d = retry.list[retry.at];
  const best = d.options[0];
  const parts = [el("p", {}, el("strong", {}, t("review.retry.ask", { i: retry.at + 1, n: retry.list.length })))];
  const choices = [...d.options].sort((a, b) => a.action.localeCompare(b.action));
  parts.push(el("div", { class: "button-row retry-choices" }, choices.map((o) => el("button", {
    type: "button", class: retry.picked === o.action ? "primary" : "secondary",
    onclick: () => { retry.picked = o.action; draw(); },
  }, moveText(o.action)))));
  if (retry.picked !== null) {
    const mine = d.options.find((o) => o.action === retry.picked);
    const lost = best.value - mine.value;
    const right = retry.picked === best.action || lost <= Math.hypot(best.error, mine.error);
    parts.push(el("p", { role: "status", class: right ? "retry-right" : "retry-wrong" }, right
      ? t("review.retry.right", { move: moveText(retry.picked), value: pct(mine.value) })
      : t("review.retry.wrong", { move: moveText(retry.picked), lost: pct(lost), best: moveText(best.action) })));
  }
  const step = (k) => { retry.at = k; retry.picked = null; ctx.go(retry.list[k].frame - 1); };
  parts.push(el("div", { class: "button-row" },
    retry.at > 0 ? el("button", { type: "button", class: "secondary", onclick: () => step(retry.at - 1) }, t("review.retry.previous")) : null,
    retry.at + 1 < retry.list.length ? el("button", { type: "button", class: "secondary", onclick: () => step(retry.at + 1) }, t("review.retry.next")) : null,
    el("button", { type: "button", class: "secondary", id: "retry-stop", onclick: () => { retry = null; draw(); ctx.go(d.frame); } }, t("review.retry.stop"))));
  return el("div", { class: "review-step", id: "review-step" }, parts);
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
    body.push(el("p", { class: "review-best" }, t("review.best", { move: moveText(d.best) }), " · ",
      t("review.valueLost", { value: value(d.value), error: value(d.error), lost: value(d.lost) })));
    // the best move shown, and the other moves the expert weighed: the chance to win after each
    body.push(el("details", { class: "review-options" },
      el("summary", {}, t("review.options", { n: d.options.length })),
      el("ol", {}, d.options.map((o) => el("li", { class: o.action === d.action ? "played" : "" },
        `${moveText(o.action)}: ${value(o.value)} ± ${value(o.error)}`)))));
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

// The marked moves (all players', or only the reader's), each a link to its step; the
// replay's own list beside the board has every move.
function moveList() {
  const mine = ctx.you !== null && ctx.you !== undefined;
  const until = horizon();
  const shown = analysis.decisions.filter((d) => isMarked(d) && (!onlyMine || d.seat === ctx.you)
    && (until === null || d.frame <= until));
  const tools = [];
  if (mine) {
    tools.push(el("label", { class: "only-mine" }, el("input", {
      type: "checkbox", id: "review-only-mine", checked: onlyMine,
      onchange: (e) => { onlyMine = e.target.checked; draw(); },
    }), " ", t("review.onlyMine")));
    if (analysis.decisions.some((d) => d.seat === ctx.you && isMistake(d) && d.options.length > 1)) {
      tools.push(el("button", { type: "button", class: "secondary", id: "review-retry", onclick: startRetry }, t("review.retry.start")));
    }
  }
  return el("div", { class: "review-moves" },
    el("h3", {}, t("review.marked", { n: shown.length })),
    tools.length ? el("div", { class: "button-row review-tools" }, tools) : null,
    el("ol", { id: "review-moves" }, shown.map((d) => el("li", { class: `${d.frame === index ? "current" : ""}${d.mark && d.mark !== "good" ? ` marked-${d.mark}` : ""}` },
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
  const until = horizon();
  const n = Math.max(1, analysis.win.length - 1); // (the scale of the whole game, even when held)
  const series = until === null ? analysis.win : analysis.win.slice(0, until + 1);
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
    if ((d.mark !== "mistake" && d.mark !== "blunder") || d.frame >= series.length) continue;
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
