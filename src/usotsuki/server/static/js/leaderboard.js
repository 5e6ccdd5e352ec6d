// The leaderboard of one game (?game=bluff|liar): accounts and bots by rating, best first,
// each one click from its profile. Settled ratings by default; "provisional too" lists
// the rest as well, each marked.
import { api } from "./api.js";
import { el, rerender } from "./dom.js";
import { errorText, initPage, onLangChange, t } from "./i18n.js";
import { botName, playerHref } from "./played.js";

const $ = (id) => document.getElementById(id);
const asked = new URLSearchParams(location.search);
const game = ["bluff", "liar"].includes(asked.get("game")) ? asked.get("game") : "bluff";
let rows = null;

function row(entry) {
  const name = entry.kind === "bot" ? botName(entry.bot) : entry.name;
  return el("tr", { dataset: { player: entry.player_id, kind: entry.kind } },
    el("td", { class: "num" }, String(entry.rank)),
    el("td", {}, el("a", { href: playerHref(entry.player_id) }, name)),
    el("td", { class: "num" }, String(Math.round(entry.shown)),
      entry.provisional ? el("abbr", { class: "provisional", title: t("profile.provisional.title") }, "?") : null),
    el("td", { class: "num" }, String(entry.games)));
}

function render() {
  $("board-caption").textContent = t("board.caption", { game: t(`game.${game}`) });
  document.title = `${t("board.title")} — ${t(`game.${game}`)} — usotsuki 嘘つき`;
  const provisional = $("with-provisional").checked ? "&provisional=1" : "";
  for (const g of ["bluff", "liar"]) {
    const tab = $(`tab-${g}`);
    tab.href = `/leaderboard.html?game=${g}${provisional}`;
    if (g === game) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  if (!rows) return;
  rerender($("board-rows"), rows.map(row));
  $("board").hidden = rows.length === 0;
  $("board-empty").hidden = rows.length > 0;
}

async function load() {
  const provisional = $("with-provisional").checked;
  history.replaceState(null, "", `/leaderboard.html?game=${game}${provisional ? "&provisional=1" : ""}`);
  try {
    rows = (await api(`/api/leaderboard/${game}?provisional=${provisional}`)).entries;
    $("notice").hidden = true;
  } catch (err) {
    $("notice").textContent = errorText(err.code, err.params, err.message);
    $("notice").hidden = false;
  }
  render();
}

async function main() {
  initPage();
  $("with-provisional").checked = asked.get("provisional") === "1";
  $("with-provisional").addEventListener("change", load);
  onLangChange(render);
  await load();
  document.body.dataset.ready = "1";
}

main();
