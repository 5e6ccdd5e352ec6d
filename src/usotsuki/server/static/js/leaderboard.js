// The leaderboard of one game (?game=bluff|liar): the rated players, best first, each
// one click from its profile; a provisional rating carries its mark.
import { api } from "./api.js";
import { el, rerender } from "./dom.js";
import { errorText, initPage, onLangChange, t } from "./i18n.js";
import { displayName } from "./people.js";

const $ = (id) => document.getElementById(id);
const asked = new URLSearchParams(location.search).get("game");
const game = ["bluff", "liar"].includes(asked) ? asked : "bluff";
let rows = null;

function row(entry, i) {
  const name = entry.kind === "bot" ? displayName(entry.name) : entry.name;
  return el("tr", { dataset: { player: entry.id, kind: entry.kind } },
    el("td", { class: "num" }, String(entry.rank ?? i + 1)),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(entry.id)}` }, name),
      entry.kind === "bot" ? el("span", { class: "badge" }, t("profile.kind.bot")) : null),
    el("td", { class: "num" }, String(Math.round(entry.shown)),
      entry.provisional ? el("abbr", { class: "provisional", title: t("profile.provisional.title") }, "?") : null),
    el("td", { class: "num" }, String(entry.games)));
}

function render() {
  $("board-caption").textContent = t("board.caption", { game: t(`game.${game}`) });
  document.title = `${t("board.title")} — ${t(`game.${game}`)} — usotsuki 嘘つき`;
  for (const g of ["bluff", "liar"]) {
    if (g === game) $(`tab-${g}`).setAttribute("aria-current", "page");
    else $(`tab-${g}`).removeAttribute("aria-current");
  }
  if (!rows) return;
  rerender($("board-rows"), rows.map(row));
  $("board-empty").hidden = rows.length > 0;
}

async function main() {
  initPage();
  render();
  onLangChange(render);
  try {
    rows = (await api(`/api/leaderboard/${game}`)).players;
    render();
  } catch (err) {
    $("notice").textContent = errorText(err.code, err.params, err.message);
    $("notice").hidden = false;
  }
  document.body.dataset.ready = "1";
}

main();
