// A player's profile (/players/{id}): name and kind, per game its places, win share,
// favourite house rules and rating with its graph, then the games with filters, newest
// first, a page at a time; each game opens its replay and its review.
import { api } from "./api.js";
import { el, rerender } from "./dom.js";
import { errorText, initPage, onLangChange, ordinal, t } from "./i18n.js";
import { me as whoAmI } from "./me.js";
import { botName, playedItem, rulesText } from "./played.js";
import { ratingGraph } from "./ratinggraph.js";

const $ = (id) => document.getElementById(id);
const GAMES = ["bluff", "liar"];
// Games a page: 20, or the address's ?limit= (1 to 100, as the server allows).
const pageSize = Math.min(100, Math.max(1, Number(new URLSearchParams(location.search).get("limit")) || 20));

const playerId = decodeURIComponent(location.pathname.split("/")[2] || "");
const base = `/api/players/${encodeURIComponent(playerId)}`;
let profile = null;
let me = null;
const histories = {}; // game -> [{finished, before, after}]
let games = [];
let next = null;

function notice(text) { $("notice").textContent = text; $("notice").hidden = !text; }

// Places as counts by place: [{place: 1, count: 3}, ...] from the server's list or map.
function placeCounts(places) {
  if (Array.isArray(places)) return places.map((count, i) => ({ place: i + 1, count })).filter((p) => p.count);
  return Object.entries(places || {}).map(([place, count]) => ({ place: Number(place), count }))
    .filter((p) => p.count).sort((a, b) => a.place - b.place);
}

function ratingEl(rating) {
  if (!rating || rating.shown === null || rating.shown === undefined) {
    return el("span", { class: "muted" }, t("profile.unrated"));
  }
  return el("span", { class: "rating" }, el("strong", { class: "rating-number" }, String(Math.round(rating.shown))),
    rating.provisional ? el("abbr", { class: "provisional", title: t("profile.provisional.title") }, "?") : null,
    rating.provisional ? el("span", { class: "muted" }, ` ${t("profile.provisional")}`) : null);
}

// A bot's rating in the arena's own pool, linking the arena's leaderboard.
function arenaLine(game) {
  const rating = profile.arena?.[game];
  if (!rating) return null;
  return el("p", { class: "arena-rating" }, el("a", { href: `/arena?game=${game}` },
    t("arena.profile", { rating: Math.round(rating.shown), n: rating.games })));
}

function gameStats(game, stats) {
  const places = placeCounts(stats.places);
  const favourites = stats.favourite_rules || [];
  const share = stats.games ? Math.round(100 * (stats.win_share ?? 0)) : null;
  return el("section", { class: "panel game-stats", id: `stats-${game}`, "aria-labelledby": `stats-${game}-h` },
    el("h2", { id: `stats-${game}-h` }, t(`game.${game}`)),
    el("dl", { class: "facts" },
      el("dt", {}, t("profile.played")), el("dd", { class: "games-played" }, String(stats.games || 0)),
      el("dt", {}, t("profile.winShare")), el("dd", { class: "win-share" }, share === null ? "–" : `${share}%`),
      el("dt", {}, t("profile.rating")), el("dd", { class: "rating-cell" }, ratingEl(stats.rating))),
    arenaLine(game),
    places.length ? el("div", {}, el("h3", {}, t("profile.places")),
      el("ul", { class: "places" }, places.map((p) => el("li", {},
        el("span", { class: "place-name" }, ordinal(p.place)), " ",
        el("span", { class: "place-bar", style: { "--share": `${(100 * p.count) / stats.games}%` } }), " ",
        el("span", { class: "place-count" }, t("profile.times", { n: p.count })))))) : null,
    favourites.length ? el("div", {}, el("h3", {}, t("profile.favourites")),
      el("ul", { class: "favourites" }, favourites.map((f) => el("li", {},
        rulesText(f.rules) || t("profile.standardRules"), " ",
        el("span", { class: "muted" }, t("profile.times", { n: f.games })))))) : null,
    histories[game]?.length ? ratingGraph(histories[game], { id: `rating-graph-${game}`, game }) : null);
}

function renderProfile() {
  $("profile-head").hidden = false;
  const name = profile.kind === "bot" ? botName(profile.name) : profile.name;
  $("player-name").textContent = name;
  document.title = `${name} — usotsuki 嘘つき`;
  const kind = profile.bot ? "bot" : profile.kind; // an outside bot's account is a bot
  $("player-kind").textContent = t(`profile.kind.${kind}`);
  $("player-kind").dataset.kind = kind;
  $("player-you").hidden = !(me && me.id === profile.id);
  const per = profile.games || {};
  // A game shows if some of its games are visible here, or it has a rating (public, as
  // on the leaderboard, even when every game behind it was private).
  const shown = GAMES.filter((g) => per[g]?.games || per[g]?.rating);
  rerender($("stats"), shown.length ? shown.map((g) => gameStats(g, per[g]))
    : el("p", { class: "panel muted" }, t("profile.noGames")));
  // The rules filter offers the rules this player played most.
  const select = $("filter-rules");
  const chosen = select.value;
  const seen = new Map();
  for (const g of GAMES) for (const f of per[g]?.favourite_rules || []) seen.set(f.key, { ...f, game: g });
  select.replaceChildren(new Option(t("profile.filter.all"), ""),
    ...[...seen.values()].map((f) => new Option(`${t(`game.${f.game}`)}: ${rulesText(f.rules) || t("profile.standardRules")}`, f.key)));
  select.value = [...seen.keys()].includes(chosen) ? chosen : "";
}

function filters() {
  const query = new URLSearchParams();
  for (const name of ["game", "rules", "result"]) {
    const value = $(`filter-${name}`).value;
    if (value) query.set(name, value);
  }
  return query;
}

function renderGames() {
  $("games").hidden = false;
  rerender($("games-list"), games.map(playedItem));
  $("no-games").hidden = games.length > 0;
  $("more-games").hidden = !next;
  $("games-count").textContent = games.length ? t("profile.shown", { n: games.length }) : "";
}

async function loadGames(more = false) {
  const query = filters();
  query.set("limit", String(pageSize));
  if (more && next) query.set("before", next);
  const answer = await api(`${base}/games?${query}`);
  games = more ? [...games, ...answer.games] : answer.games;
  next = answer.next ?? null;
  renderGames();
}

// The filters live in the page's address too: a filtered list can be shared and reloaded.
function keepFiltersInAddress() {
  const query = filters();
  if (pageSize !== 20) query.set("limit", String(pageSize));
  history.replaceState(null, "", `${location.pathname}${query.size ? `?${query}` : ""}`);
}

async function refilter() {
  keepFiltersInAddress();
  document.body.dataset.loading = "1";
  try { await loadGames(); } catch (err) { notice(errorText(err.code, err.params, err.message)); }
  delete document.body.dataset.loading;
}

async function main() {
  initPage();
  const asked = new URLSearchParams(location.search);
  for (const name of ["game", "result"]) if (asked.get(name)) $(`filter-${name}`).value = asked.get(name);
  try {
    [profile, me] = await Promise.all([api(base), whoAmI().catch(() => null)]);
    await Promise.all(GAMES.filter((g) => profile.games?.[g]?.rating).map(async (g) => {
      histories[g] = await api(`${base}/ratings?game=${g}`);
    }));
    renderProfile();
    if (asked.get("rules")) $("filter-rules").value = asked.get("rules");
    await loadGames();
  } catch (err) {
    notice(err.status === 404 ? t("profile.notFound") : errorText(err.code, err.params, err.message));
  }
  for (const name of ["game", "rules", "result"]) $(`filter-${name}`).addEventListener("change", refilter);
  $("more-games").addEventListener("click", async () => {
    try { await loadGames(true); } catch (err) { notice(errorText(err.code, err.params, err.message)); }
  });
  onLangChange(() => { if (profile) { renderProfile(); renderGames(); } });
  document.body.dataset.ready = "1";
}

main();
