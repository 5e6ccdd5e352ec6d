// Games played, as the profile and the Replays page list them: one item per game with
// its place, rating change, rules and the links to its replay and its review.
import { el } from "./dom.js";
import { currentLang, ordinal, t } from "./i18n.js";
import { displayName } from "./people.js";

// A house rule's value in words ("Seat 2", "9–A"); other values as they are.
export function ruleValue(k, v) {
  if (k === "dealer") return t("home.seat", { n: v + 1 });
  if (k === "ranks") return `${"23456789TJQKA"[13 - v].replace("T", "10")}–A`;
  return v;
}

// The rules a game was played under, short: "Multiple cards · Hand size 9".
export function rulesText(rules) {
  return Object.entries(rules || {}).filter(([k, v]) => v !== false && v !== null && k !== "dealer")
    .map(([k, v]) => (v === true ? t(`opt.${k}`) : `${t(`opt.${k}`)} ${ruleValue(k, v)}`)).join(" · ");
}

export function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(currentLang() === "ja" ? "ja-JP" : "en-GB",
    { dateStyle: "medium", timeStyle: "short" });
}

// Where a game's replay and review open: the replay page by table and game number.
export function replayHref(game, review = false) {
  const href = `/replay.html?t=${encodeURIComponent(game.table_id)}&game=${encodeURIComponent(game.number)}`;
  return review ? `${href}&review=1` : href;
}

function change(game) {
  if (game.rating_after === null || game.rating_after === undefined) return null;
  const delta = Math.round(game.rating_after - (game.rating_before ?? game.rating_after));
  return el("span", { class: `delta ${delta >= 0 ? "up" : "down"}`, title: t("played.ratingChange") },
    `${delta >= 0 ? "+" : "−"}${Math.abs(delta)}`, " ", el("span", { class: "sr-only" }, t("played.ratingChange")));
}

// One game as the player `seat` of it saw it (the profile's player, or you).
export function playedItem(game) {
  const others = (game.seats || []).filter((s) => s.seat !== game.seat).map((s) => displayName(s.name));
  const place = game.left ? t("played.left") : t("played.place", { place: ordinal(game.place), n: game.players });
  return el("li", { class: `played result-${game.place === 1 ? "win" : "loss"}`, dataset: { game: game.game, table: game.table_id, number: String(game.number) } },
    el("div", { class: "played-head" },
      el("strong", {}, t(`game.${game.game}`)), " ",
      el("span", { class: `place${game.place === 1 ? " first" : ""}` }, place), " ",
      game.rated ? el("span", { class: "badge rated" }, t("played.rated")) : null, " ",
      change(game)),
    el("div", { class: "played-meta muted" },
      el("time", { datetime: new Date(game.finished * 1000).toISOString() }, when(game.finished)),
      others.length ? ` · ${t("played.with", { names: others.join(", ") })}` : ""),
    rulesText(game.rules) ? el("div", { class: "played-rules muted" }, rulesText(game.rules)) : null,
    el("div", { class: "played-links" },
      el("a", { class: "button secondary small replay-link", href: replayHref(game) }, t("played.replay")),
      el("a", { class: "button secondary small review-link", href: replayHref(game, true) }, t("played.review"))));
}
