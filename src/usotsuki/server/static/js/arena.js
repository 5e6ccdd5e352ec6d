// The bot arena's leaderboard of one game (?game=bluff|liar): outside bots and the house
// levels by arena rating, each with its 95% interval, its rated arena games and its win
// share against each house level; every bot one click from its profile (its games,
// replays and reviews).
import { api } from "./api.js";
import { el, rerender } from "./dom.js";
import { errorText, initPage, onLangChange, t } from "./i18n.js";
import { botName, playerHref } from "./played.js";

const $ = (id) => document.getElementById(id);
const asked = new URLSearchParams(location.search);
const game = ["bluff", "liar"].includes(asked.get("game")) ? asked.get("game") : "bluff";
const LEVELS = ["easy", "normal", "hard", "expert"];
let rows = null;

function share(entry, level) {
  const met = entry.against[level];
  if (!met) return el("td", { class: "num muted" }, "–");
  return el("td", { class: "num", title: t("arena.met", { n: met.games }) },
    `${Math.round(100 * met.share)}%`);
}

function row(entry) {
  const name = entry.kind === "house" ? botName(entry.house) : entry.name;
  return el("tr", { dataset: { player: entry.player_id, kind: entry.kind } },
    el("td", { class: "num" }, String(entry.rank)),
    el("td", {}, el("a", { href: playerHref(entry.player_id) }, name),
      entry.kind === "house" ? el("span", { class: "muted" }, ` ${t("arena.house")}`) : null),
    el("td", { class: "num" }, String(Math.round(entry.shown)),
      entry.provisional ? el("abbr", { class: "provisional", title: t("profile.provisional.title") }, "?") : null),
    el("td", { class: "num" }, `${Math.round(entry.low)}–${Math.round(entry.high)}`),
    el("td", { class: "num" }, String(entry.games)),
    ...LEVELS.map((level) => share(entry, level)));
}

function render() {
  $("board-caption").textContent = t("arena.caption", { game: t(`game.${game}`) });
  document.title = `${t("arena.title")} — ${t(`game.${game}`)} — usotsuki 嘘つき`;
  for (const g of ["bluff", "liar"]) {
    const tab = $(`tab-${g}`);
    if (g === game) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  const head = $("board-head");
  head.querySelectorAll(".vs").forEach((th) => th.remove());
  for (const level of LEVELS) {
    head.append(el("th", { scope: "col", class: "num vs" }, t("arena.against", { bot: t(`bot.${level}`) })));
  }
  if (!rows) return;
  rerender($("board-rows"), rows.map(row));
  $("board").hidden = rows.length === 0;
  $("board-empty").hidden = rows.length > 0;
}

async function main() {
  initPage();
  onLangChange(render);
  try {
    rows = (await api(`/api/arena/${game}`)).entries;
  } catch (err) {
    $("notice").textContent = errorText(err.code, err.params, err.message);
    $("notice").hidden = false;
  }
  render();
  document.body.dataset.ready = "1";
}

main();
