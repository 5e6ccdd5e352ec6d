// A player's rating over its rated games, drawn as inline SVG (no chart library): one
// point per game, the rating after it; a provisional stretch drawn dashed. Pure drawing
// from the history the server gives (GET /api/players/{id}/ratings).
import { el } from "./dom.js";
import { currentLang, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 420;
const H = 180;
const PAD = { left: 40, right: 10, top: 10, bottom: 24 };

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

// Round gridline values covering [lo, hi]: steps of 1, 2 or 5 times a power of ten.
export function gridSteps(lo, hi, count = 4) {
  const span = Math.max(hi - lo, 1);
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const values = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) values.push(Math.round(v));
  return values;
}

// A point's date; the time too when the whole graph spans under two days.
function dateText(seconds, withTime = false) {
  return new Date(seconds * 1000).toLocaleString(currentLang() === "ja" ? "ja-JP" : "en-GB",
    withTime ? { dateStyle: "short", timeStyle: "short" } : { dateStyle: "short" });
}

// points: [{finished, before, after}] oldest first. Returns a <figure>, or null for none.
export function ratingGraph(points, { id = "rating-graph", game = "" } = {}) {
  if (!points.length) return null;
  const values = [points[0].before ?? points[0].after, ...points.map((p) => p.after)].filter((v) => v !== null && v !== undefined);
  const lo0 = Math.min(...values);
  const hi0 = Math.max(...values);
  const margin = Math.max((hi0 - lo0) * 0.1, 10);
  const lo = lo0 - margin;
  const hi = hi0 + margin;
  const n = points.length; // x: 0 is the rating before the first game, i after game i
  const x = (i) => PAD.left + (W - PAD.left - PAD.right) * (n ? i / n : 0);
  const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - (v - lo) / (hi - lo));
  const first = points[0].before ?? points[0].after;
  const last = points[n - 1].after;
  const summary = t("profile.graph.summary", { from: Math.round(first), to: Math.round(last), n });
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-graph", id, role: "img", "aria-label": summary });
  root.append(svg("title", {}, summary));
  for (const v of gridSteps(lo, hi)) {
    if (v < lo || v > hi) continue;
    root.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: "grid" }));
    root.append(svg("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(v)));
  }
  const short = points[n - 1].finished - points[0].finished < 2 * 86400;
  root.append(svg("text", { x: PAD.left, y: H - 8, class: "axis" }, dateText(points[0].finished, short)));
  if (n > 1) root.append(svg("text", { x: W - PAD.right, y: H - 8, "text-anchor": "end", class: "axis" }, dateText(points[n - 1].finished, short)));
  const coords = [[x(0), y(first)], ...points.map((p, i) => [x(i + 1), y(p.after)])];
  root.append(svg("polyline", { points: coords.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" "), class: "line" }));
  points.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i + 1), cy: y(p.after), r: 3.5, class: p.after >= (p.before ?? p.after) ? "up" : "down" });
    dot.append(svg("title", {}, t("profile.graph.point", { date: dateText(p.finished, true), before: Math.round(p.before ?? p.after), after: Math.round(p.after) })));
    root.append(dot);
  });
  return el("figure", { class: "graph", dataset: { game, points: String(n) } }, root,
    el("figcaption", { class: "muted" }, summary));
}
