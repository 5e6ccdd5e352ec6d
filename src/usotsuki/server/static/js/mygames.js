// The Replays page's first part: your games on this browser (GET /api/me/games), newest
// first, each one click from its replay and its review; the record-file picker follows.
// A replay opened by address (?t=) shows that game alone.
import { api } from "./api.js";
import { rerender } from "./dom.js";
import { onLangChange } from "./i18n.js";
import { me as whoAmI } from "./me.js";
import { playedItem } from "./played.js";

const $ = (id) => document.getElementById(id);
const PAGE = 5;
let games = [];
let next = null;

function render() {
  rerender($("my-games-list"), games.map(playedItem));
  $("my-games-none").hidden = games.length > 0;
  $("my-games-more").hidden = !next;
}

async function load(more = false) {
  const query = new URLSearchParams({ limit: String(PAGE) });
  if (more && next) query.set("before", next);
  const answer = await api(`/api/me/games?${query}`);
  games = more ? [...games, ...answer.games] : answer.games;
  next = answer.next ?? null;
  render();
}

async function main() {
  if (new URLSearchParams(location.search).get("t")) return;
  // A record file opened here: the game on show takes the page, as one opened by address.
  document.addEventListener("replay:step", () => { $("my-games").hidden = true; }, { once: true });
  try {
    const me = await whoAmI(); // a first visit is given its guest identity here
    $("my-profile").href = `/players/${encodeURIComponent(me.id)}`;
    await load();
    $("my-games").hidden = !$("viewer").hidden; // unless a file was opened meanwhile
  } catch (err) {
    return; // no identity to list games for: the file picker alone
  } finally {
    document.body.dataset.myGames = "1";
  }
  $("my-games-more").addEventListener("click", () => load(true).catch(() => { $("my-games-more").hidden = true; }));
  onLangChange(render);
}

main();
