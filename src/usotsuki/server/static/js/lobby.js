// The lobby: public tables waiting for players (join in one click), a form to open one,
// and public games being played (watch one). The lists follow the server's live feed
// (`/api/lobby/events`, one frame a second at most); every name and rule is set as text.
import { api, lastName, rememberName, rememberSeat } from "./api.js";
import { el, rerender } from "./dom.js";
import { errorText, initPage, onLangChange, t } from "./i18n.js";
import { chosenName, me, rename } from "./me.js";
import { rulesText } from "./played.js";

const $ = (id) => document.getElementById(id);
const CLOCKS = ["30", "60", "120", "off"];
let lists = null; // {open: [listing], live: [listing]}
let feed = null;
let busy = false;

function gameName(listing) { return t(`game.${listing.game}`); }

function clockText(listing) {
  return listing.turn_seconds ? t("home.clockSeconds", { n: listing.turn_seconds }) : t("lobby.noClock");
}

function ratingText(listing) {
  if (!listing.rated) return t("lobby.casual");
  if (!listing.rating) return t("lobby.ratedShort");
  const [low, high] = listing.rating.map((r) => String(Math.round(r)));
  return low === high ? low : t("lobby.ratingRange", { low, high });
}

function fact(label, value, extra = {}) {
  return el("div", { class: "fact", ...extra }, el("dt", {}, label), el("dd", {}, value));
}

function facts(listing) {
  return el("dl", { class: "listing-facts" },
    fact(t("lobby.players"), t("lobby.seated", { seated: listing.seated, seats: listing.seats }),
      { title: t("lobby.seatedLong", { seated: listing.seated, seats: listing.seats }) }),
    fact(t("lobby.rules"), rulesText(listing.rules) || t("lobby.standard")),
    fact(t("lobby.clock"), clockText(listing)),
    fact(t("lobby.rating"), ratingText(listing)));
}

function openItem(listing) {
  const host = listing.host || "?";
  return el("li", { class: "listing", dataset: { table: listing.table_id } },
    el("div", { class: "listing-head" },
      el("h3", {}, gameName(listing)),
      el("span", { class: "muted host" }, `${t("lobby.host")}: `, host)),
    facts(listing),
    el("button", { type: "button", class: "primary join-public", id: `join-${listing.table_id}`,
      "aria-label": t("lobby.joinAt", { game: gameName(listing), host }),
      onclick: () => join(listing) }, t("lobby.join")));
}

function liveItem(listing) {
  const players = t("lobby.seated", { seated: listing.people, seats: listing.seats });
  return el("li", { class: "listing", dataset: { table: listing.table_id } },
    el("div", { class: "listing-head" },
      el("h3", {}, gameName(listing)),
      el("span", { class: "watchers", dataset: { count: String(listing.spectators) } },
        t("lobby.watchers", { n: listing.spectators }))),
    facts(listing),
    el("a", { class: "button secondary watch", href: `/table.html?t=${encodeURIComponent(listing.table_id)}`,
      "aria-label": t("lobby.watchAt", { game: gameName(listing), players }) }, t("lobby.watch")));
}

function render() {
  document.title = `${t("lobby.title")} — usotsuki 嘘つき`;
  renderClocks();
  if (!lists) return;
  rerender($("open-list"), lists.open.map(openItem));
  rerender($("live-list"), lists.live.map(liveItem));
  $("open-empty").hidden = lists.open.length > 0;
  $("live-empty").hidden = lists.live.length > 0;
  $("open-list").hidden = lists.open.length === 0;
  $("live-list").hidden = lists.live.length === 0;
  $("feed-status").textContent = feed && feed.readyState === EventSource.CONNECTING
    ? t("lobby.offline") : t("lobby.updated", { open: lists.open.length, live: lists.live.length });
  document.body.dataset.open = String(lists.open.length);
  document.body.dataset.live = String(lists.live.length);
}

function renderClocks() {
  const select = $("create-clock");
  const chosen = select.value || "60";
  rerender(select, CLOCKS.map((v) => el("option", { value: v, selected: v === chosen },
    v === "off" ? t("home.clockOff") : t("home.clockSeconds", { n: v }))));
}

function showError(e) {
  $("notice").textContent = e.code === "network" ? t("err.network") : errorText(e.code, e.params, e.message);
  $("notice").hidden = false;
}

// The name to sit with: typed here, else the identity's, else this browser's last one.
async function sitName() {
  const name = $("lobby-name").value.trim();
  if (!name) {
    $("notice").textContent = t("home.needName");
    $("notice").hidden = false;
    $("lobby-name").focus();
    return null;
  }
  rememberName(name);
  const who = await me().catch(() => null);
  if (who && who.name !== name) await rename(name).catch(() => null);
  return name;
}

async function join(listing) {
  if (busy) return;
  $("notice").hidden = true;
  const name = await sitName();
  if (!name) return;
  busy = true;
  try {
    const joined = await api(`/api/tables/${encodeURIComponent(listing.table_id)}/join`,
      { method: "POST", body: { name }, retry: true });
    rememberSeat(listing.table_id, { seat: joined.seat, token: joined.token });
    location.href = `/table.html?t=${encodeURIComponent(listing.table_id)}`;
  } catch (e) {
    busy = false;
    showError(e);
  }
}

async function create(event) {
  event.preventDefault();
  if (busy) return;
  $("notice").hidden = true;
  const name = await sitName();
  if (!name) return;
  const players = Number($("create-players").value);
  const clock = $("create-clock").value;
  const body = {
    game: $("create-game").value,
    seats: Array.from({ length: players }, () => ({ bot: null })),
    visibility: "public",
    turn_seconds: clock === "off" ? null : Number(clock),
  };
  if ($("create-rated").checked) body.rated = true;
  busy = true;
  $("create-public").disabled = true;
  try {
    const created = await api("/api/tables", { method: "POST", body, retry: true });
    const joined = await api(`/api/invites/${encodeURIComponent(created.invite)}/join`,
      { method: "POST", body: { name, seat: 0 }, retry: true });
    rememberSeat(created.table_id, {
      seat: joined.seat, token: joined.token, host_token: created.host_token, invite: created.invite,
    });
    location.href = `/table.html?t=${encodeURIComponent(created.table_id)}`;
  } catch (e) {
    busy = false;
    $("create-public").disabled = false;
    showError(e);
  }
}

function follow() {
  feed = new EventSource("/api/lobby/events");
  feed.addEventListener("lobby", (e) => {
    lists = JSON.parse(e.data);
    render();
    document.body.dataset.ready = "1";
  });
  feed.addEventListener("error", render); // (it reconnects by itself)
}

async function main() {
  initPage();
  $("lobby-name").value = lastName();
  me().then((who) => { if (!$("lobby-name").value && chosenName(who)) $("lobby-name").value = chosenName(who); }, () => {});
  $("create-form").addEventListener("submit", create);
  onLangChange(render);
  render();
  try { // the first lists at once; the feed keeps them current
    const [open, live] = await Promise.all([api("/api/lobby"), api("/api/live")]);
    if (!lists) lists = { open: open.tables, live: live.games };
    render();
  } catch (e) { showError(e); }
  follow();
}

main();
