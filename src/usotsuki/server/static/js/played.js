// Games played, as the profile and the Replays page list them: one item per game with
// its place, rating change, rules and the links to its replay and its review.
import { el } from "./dom.js";
import { currentLang, hasKey, ordinal, sentenceGap, t } from "./i18n.js";
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

// A bot's player is named by its level ("hard"): "Bot (hard)" in the reader's language.
export function botName(level) {
  return t("profile.botName", { level: hasKey(`bot.${level}`) ? t(`bot.${level}`) : level });
}

export function playerHref(id) { return `/players/${encodeURIComponent(id)}`; }

function change(game) {
  if (!game.rated || !game.rating) return null;
  const delta = Math.round(game.rating.after - (game.rating.before ?? game.rating.after));
  return el("span", { class: `delta ${delta >= 0 ? "up" : "down"}`, title: t("played.ratingChange") },
    `${delta >= 0 ? "+" : "−"}${Math.abs(delta)}`, " ", el("span", { class: "sr-only" }, t("played.ratingChange")));
}

// One game as the player `seat` of it saw it (the profile's player, or you).
export function playedItem(game) {
  const others = (game.seats || []).filter((s) => s.seat !== game.seat).map((s) => (s.player_id
    ? el("a", { href: playerHref(s.player_id) }, displayName(s.name)) : displayName(s.name)));
  const place = game.left ? t("played.left") : t("played.place", { place: ordinal(game.place), n: game.players });
  return el("li", { class: `played result-${game.place === 1 ? "win" : "loss"}`, dataset: { game: game.game, table: game.table_id, number: String(game.number) } },
    el("div", { class: "played-head" },
      el("strong", {}, t(`game.${game.game}`)), " ",
      el("span", { class: `place${game.place === 1 ? " first" : ""}` }, place), " ",
      game.rated ? el("span", { class: "badge rated" }, t("played.rated")) : null, " ",
      change(game)),
    el("div", { class: "played-meta muted" },
      el("time", { datetime: new Date(game.finished * 1000).toISOString() }, when(game.finished)),
      others.length ? [" · ", t("played.with"), sentenceGap(), others.flatMap((o, i) => (i ? [t("played.comma"), o] : [o]))] : null),
    rulesText(game.rules) ? el("div", { class: "played-rules muted" }, rulesText(game.rules)) : null,
    el("div", { class: "played-links" },
      el("a", { class: "button secondary small replay-link", href: game.links.replay }, t("played.replay")),
      el("a", { class: "button secondary small review-link", href: game.links.review }, t("played.review"))));
}
