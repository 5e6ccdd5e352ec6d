// The table page: joins by invite, keeps the seat token, follows the table over a
// WebSocket (resuming with since=n), and renders the seat's view and legal moves.
import { api, forgetSeat, lastName, rememberName, rememberSeat, seatAt } from "./api.js";
import { bluffCenter, bluffControls, bluffSeatExtra } from "./bluff.js";
import { callText, cardEl, rankLabel, stackEl, suitSymbol } from "./cards.js";
import { el, rerender } from "./dom.js";
import { initPage, onLangChange, t, toggleLang } from "./i18n.js";
import { liarCenter, liarControls, liarSeatExtra, resetIfNew, selectable, selectedCards, toggleCard } from "./liar.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let tableId = params.get("t");
let info = null; // the table's public summary
let mine = null; // {seat, token, host_token, invite} held by this browser
let state = null; // the last "state" message
let lastN = -1; // the last event number seen: resume from here
let events = []; // events seen, for the log
let names = [];
let socket = null;
let retry = 0;
let msgId = 0;
const evidenceCache = new Map();
let copiedUntil = 0;
const dismissed = new Set();

function seatName(i) {
  const s = info?.seats[i];
  // Bots are named by the server after their level ("normal bot"): shown in the reader's
  // language, with the seat number so that two bots of one level differ.
  if (s?.bot && (!names[i] || names[i] === `${s.bot} bot`)) {
    return `${t(`bot.${s.bot}`)} ${t("seat.bot")} ${i + 1}`;
  }
  if (names[i]) return names[i];
  if (!s) return `#${i + 1}`;
  return s.name || t("seat.empty");
}

function allNames() { return (info?.seats || []).map((_, i) => seatName(i)); }

function mySeat() { return mine && mine.token ? mine.seat : null; }

function notice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = !text;
  if (text) setTimeout(() => { if (box.textContent === text) box.hidden = true; }, 6000);
}

function setConn(key) { $("conn").textContent = t(key); $("conn").dataset.state = key; }

// ---- the connection ------------------------------------------------------------

let retryTimer = null;

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const query = new URLSearchParams({ since: String(lastN) });
  if (mine?.token) query.set("token", mine.token);
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?${query}`);
  socket = ws;
  setConn(retry ? "table.reconnecting" : "table.connecting");
  ws.onopen = () => {
    retry = 0;
    setConn("table.connected");
    document.body.dataset.connects = String(Number(document.body.dataset.connects || 0) + 1);
  };
  ws.onmessage = (m) => {
    if (ws !== socket) return; // a socket being replaced says nothing more
    try { onMessage(JSON.parse(m.data)); } catch (e) { console.error(e); }
  };
  ws.onclose = (ev) => {
    if (ws !== socket) return;
    socket = null;
    if (ev.code === 4404) { notice(t("table.notFound")); return; }
    if (ev.code === 4403) { forgetSeat(tableId); mine = null; }
    retry += 1;
    setConn("table.reconnecting");
    retryTimer = setTimeout(connect, Math.min(500 * retry, 5000));
  };
}

// Back online: do not wait for the old socket to time out; resume from the last event.
window.addEventListener("online", () => {
  if (socket) socket.close(); else if (retryTimer) connect();
});
window.addEventListener("offline", () => setConn("table.reconnecting"));

function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { notice(t("table.reconnecting")); return; }
  socket.send(JSON.stringify({ type: "act", action, id: ++msgId }));
}

function onMessage(m) {
  switch (m.type) {
    case "welcome": info = m.table; break;
    case "table": info = m.table; break;
    case "event":
      if (m.n <= lastN) return; // already seen (a resumed stream never repeats, but be safe)
      lastN = m.n;
      if (m.event.type === "game_started") names = m.event.names;
      events.push(m.event);
      appendLog(m.event);
      return;
    case "state": state = m; break;
    case "error": if (m.code !== "left") notice(m.message); return;
    default: return;
  }
  render();
}

// ---- joining, starting, rematch -----------------------------------------------

async function join(form) {
  const name = form.elements.name.value.trim();
  if (!name) { notice(t("home.needName")); return; }
  rememberName(name);
  try {
    const joined = await api(`/api/invites/${encodeURIComponent(mine.invite)}/join`,
      { method: "POST", body: { name } });
    rememberSeat(tableId, { seat: joined.seat, token: joined.token });
    mine = seatAt(tableId);
    if (socket) socket.close(); // reconnect with the token
  } catch (e) { notice(e.message); }
}

async function command(kind) {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/${kind}`,
      { method: "POST", body: { token: mine.token || mine.host_token } });
  } catch (e) { notice(e.message); }
}

// ---- rendering -------------------------------------------------------------------

function render() {
  if (!info) return;
  const status = state?.status ?? info.status;
  const view = state?.view;
  $("lobby").hidden = status !== "waiting";
  $("board").hidden = !view;
  $("results").hidden = status !== "finished" || !view;
  document.body.dataset.status = status;
  document.body.dataset.n = String(state?.n ?? -1); // lets tests wait for the next state
  document.body.dataset.game = info.game;
  renderInvite(status);
  if (status === "waiting") renderLobby();
  if (view) renderBoard(view);
  if (status === "finished" && view) renderResults(view);
}

// The invite link with its copy button: in the lobby while seats are free, then at
// the side for the host (spectators may still be invited).
function inviteEls() {
  const invite = mine?.invite;
  if (!invite) return null;
  const link = `${location.origin}/table.html?invite=${encodeURIComponent(invite)}`;
  const copy = el("button", { type: "button", class: "secondary", id: "copy-invite", onclick: async () => {
    try { await navigator.clipboard.writeText(link); } catch (e) {
      $("invite-link").select(); document.execCommand("copy");
    }
    copiedUntil = Date.now() + 3000; // redraws meanwhile keep saying so
    $("copy-invite").textContent = t("table.copied");
    setTimeout(render, 3100);
  } }, Date.now() < copiedUntil ? t("table.copied") : t("table.copy"));
  return [el("h2", {}, t("table.invite")),
    el("div", { class: "invite-row" },
      el("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("table.invite"), onfocus: (e) => e.target.select() }),
      copy)];
}

function renderInvite(status) {
  const box = $("invite-box");
  box.hidden = status === "waiting" || !mine?.host_token || !mine?.invite;
  if (!box.hidden) rerender(box, inviteEls());
}

function rulesEls() {
  const rules = info.rules || {};
  const items = Object.entries(rules).filter(([, v]) => v !== false && v !== null)
    .map(([k, v]) => el("li", {}, el("strong", {}, t(`opt.${k}`)), v === true ? "" : `: ${v}`, " ",
      el("small", { class: "muted" }, t(`opt.${k}.desc`))));
  if (info.games_per_match > 1) items.push(el("li", {}, el("strong", {}, t("home.games")), `: ${info.games_per_match}`));
  return items.length ? [el("h2", {}, t("home.rules")), el("ul", { class: "rules-list", id: "rules-list" }, items)] : [];
}

function renderLobby() {
  const seats = info.seats;
  const free = seats.filter((s) => !s.taken);
  const parts = [el("h1", {}, `${t(`game.${info.game}`)}`), free.length ? inviteEls() : null, rulesEls(),
    el("h2", {}, t("home.seats")),
    el("ol", { class: "lobby-seats", id: "lobby-seats" }, seats.map((s, i) => el("li", { class: s.taken ? "taken" : "free" },
      el("span", {}, s.taken ? seatName(i) : t("seat.empty")),
      i === mySeat() ? el("span", { class: "badge you" }, t("table.you")) : null,
      s.bot ? el("span", { class: "badge" }, t("seat.bot")) : null)))];
  const typed = $("join-name")?.value; // a redraw must not wipe a name being typed
  if (mySeat() === null && free.length && mine?.invite) { // only the invite lets one sit
    parts.push(el("form", { class: "join", id: "join-form", onsubmit: (e) => { e.preventDefault(); join(e.target); } },
      el("h2", {}, t("table.joinHeading")),
      el("label", { class: "form-field" }, el("span", {}, t("home.name")),
        el("input", { name: "name", id: "join-name", maxlength: "32", value: typed ?? lastName(), required: true, autocomplete: "nickname" })),
      el("button", { type: "submit", class: "primary", id: "join" }, t("table.join"))));
  } else if (mySeat() === null) {
    parts.push(el("p", {}, free.length ? t("table.spectating") : t("table.full")));
  }
  parts.push(el("p", { class: "muted", id: "lobby-status" }, free.length ? t("table.waiting") : t("table.ready")));
  if (!free.length && (mine?.token || mine?.host_token)) {
    parts.push(el("button", { type: "button", class: "primary", id: "start", onclick: () => command("start") }, t("table.start")));
  }
  rerender($("lobby"), parts);
}

function ctxFor(view) {
  const me = mySeat();
  const legal = state.to_move === me && me !== null ? state.legal : null;
  return {
    view, legal, names: allNames(), send, stateKey: `${state.game}:${state.n}`,
    redraw: () => renderBoard(view),
    // Reveal panels stay until dismissed; keyed by the table's game, as a rematch
    // numbers its rounds and doubts from the start again.
    showReveal: (key) => !dismissed.has(`${state.game}/${key}`),
    dismissReveal: (key) => { dismissed.add(`${state.game}/${key}`); renderBoard(view); },
    evidence: (index, result) => evidenceFor(index, result),
  };
}

function evidenceFor(index, result) {
  const key = `${state.game}:${index}`;
  if (evidenceCache.has(key)) return evidenceCache.get(key);
  evidenceCache.set(key, null);
  api("/api/bluff/evidence", { method: "POST", body: { call: result.call, hands: result.hands } })
    .then((cards) => { evidenceCache.set(key, cards); render(); })
    .catch(() => evidenceCache.set(key, []));
  return null;
}

function renderBoard(view) {
  const ctx = ctxFor(view);
  const me = mySeat();
  const status = state.status;
  const turn = $("turn");
  let text;
  if (status === "finished") text = t("turn.over");
  else if (state.to_move === null) text = t("turn.dealing");
  else if (state.to_move === me) text = t("turn.yours");
  else text = t("turn.of", { name: seatName(state.to_move) });
  const where = status === "finished" ? null : info.game === "bluff" ? t("table.round", { n: view.round + 1 })
    : (info.games_per_match > 1 ? `${t("table.game", { n: view.game + 1 })} / ${info.games_per_match}` : null);
  turn.textContent = where ? `${where} · ${text}` : text;
  turn.className = `turn${state.to_move === me && status !== "finished" ? " yours" : ""}`;

  const n = view.hand_sizes.length;
  const order = [];
  for (let k = 1; k <= n; k++) order.push(((me ?? -1) + k + n) % n);
  const others = me === null ? [...Array(n).keys()] : order.filter((s) => s !== me);
  rerender($("opponents"), others.map((s) => seatBox(view, s)));

  if (info.game === "bluff") rerender($("felt"), bluffCenter(ctx));
  else { resetIfNew(ctx.stateKey); rerender($("felt"), liarCenter(ctx)); }

  rerender($("me"), myArea(view, ctx));
  const controls = info.game === "bluff" ? bluffControls(ctx) : liarControls(ctx);
  rerender($("controls"), controls);
  $("controls").hidden = !controls.length;
}

function seatBox(view, s) {
  const seat = info.seats[s] || {};
  const active = state.to_move === s && state.status !== "finished";
  const extra = info.game === "bluff" ? bluffSeatExtra(view, s) : liarSeatExtra(view, s);
  return el("div", { class: `seat${active ? " active" : ""}${seat.bot ? " bot" : ""}`, id: `seat-${s}`, dataset: { seat: s } },
    el("div", { class: "seat-name" },
      el("span", { class: `dot${seat.bot || seat.connected ? " on" : ""}`, title: seat.bot || seat.connected ? "" : t("seat.offline") }),
      seatName(s)),
    el("div", { class: "seat-cards" }, stackEl(view.hand_sizes[s], t("seat.cards", { n: view.hand_sizes[s] }))),
    el("div", { class: "seat-extra" }, extra));
}

function myArea(view, ctx) {
  const me = mySeat();
  if (me === null) return [el("p", { class: "muted spectating", id: "spectating" }, t("table.spectating"))];
  const hand = view.hand || [];
  const canSelect = info.game === "liar" && selectable(ctx.legal);
  const chosen = info.game === "liar" ? selectedCards() : [];
  const extra = info.game === "bluff" ? bluffSeatExtra(view, me) : liarSeatExtra(view, me);
  return [
    el("div", { class: `my-name${state.to_move === me ? " active" : ""}` }, seatName(me), " ",
      el("span", { class: "badge you" }, t("table.you")), extra),
    el("div", { class: `hand${canSelect ? " selectable" : ""}`, id: "hand", role: canSelect ? "group" : null },
      hand.map((c, i) => {
        const card = cardEl(c, { button: canSelect, selected: chosen.includes(c) });
        card.id = `card-${c}`;
        card.style.setProperty("--i", i);
        if (canSelect) card.addEventListener("click", () => { toggleCard(c); renderBoard(view); });
        return card;
      })),
  ];
}

function renderResults(view) {
  const standings = view.standings || [];
  const game = state.game;
  const base = `/api/tables/${encodeURIComponent(tableId)}/games/${game}`;
  const parts = [el("h2", {}, t("end.heading")),
    el("ol", { class: "standings", id: "standings" }, standings.map((place, i) => el("li", {},
      el("span", { class: "place" }, t("end.place", { n: i + 1 })), " ",
      place.map((s) => seatName(s)).join(", "))))];
  const row = [];
  if (mine?.token || mine?.host_token) {
    row.push(el("button", { type: "button", class: "primary", id: "rematch", onclick: () => command("rematch") }, t("end.rematch")));
  }
  row.push(el("a", { class: "button secondary", id: "download", href: `${base}/record`, download: `usotsuki-${info.game}-${tableId}-${game}.json` }, t("end.download")));
  row.push(el("a", { class: "button secondary", id: "replay", href: `/replay.html?t=${encodeURIComponent(tableId)}&game=${game}` }, t("end.replay")));
  row.push(el("a", { class: "button secondary", id: "review", href: `/replay.html?t=${encodeURIComponent(tableId)}&game=${game}&review=1` }, t("review.open")));
  parts.push(el("div", { class: "button-row" }, row));
  rerender($("results"), parts);
}

// ---- the log -------------------------------------------------------------------

function rateOf(r) { return rankLabel(r); }

function cardsText(cards) { return cards.map((c) => rankLabel(c.slice(0, -1)) + suitSymbol(c.slice(-1))).join(" "); }

function describe(e) {
  const nm = (s) => seatName(s);
  switch (e.type) {
    case "game_started": return t("ev.game_started", { n: e.game + 1 });
    case "round_dealt": return t("ev.round_dealt", { n: e.round + 1 });
    case "called": return t("ev.called", { name: nm(e.seat), call: callText(e.call) });
    case "challenged": return `${t("ev.challenged", { name: nm(e.challenger) })} ${t(e.call_true ? "bluff.revealTrue" : "bluff.revealFalse", { call: callText(e.call) })} ${t("bluff.loses", { name: nm(e.loser) })}${e.eliminated ? ` ${t("bluff.out", { name: nm(e.loser) })}` : ""}`;
    case "game_over": return t("ev.game_over");
    case "stand_in": return t("ev.stand_in", { name: nm(e.seat), bot: e.bot, reason: e.reason });
    case "played": return t("ev.played", { name: nm(e.seat), n: e.count, rate: rateOf(e.rate) });
    case "passed": return t("ev.passed", { name: nm(e.seat) });
    case "drew": return t("ev.drew", { name: nm(e.seat), n: e.count });
    case "doubted": return t("ev.doubted", { name: nm(e.doubter), other: nm(e.doubted), verdict: t(e.truthful ? "ev.truthful" : "ev.lie") });
    case "accepted": return t("ev.accepted", { name: nm(e.seat) });
    case "flushed": return t("ev.flushed", { n: e.count });
    case "order_changed": return t("ev.order_changed", { order: e.reversed ? t("liar.orderReversed") : t("liar.orderNormal"), cause: t(`cause.${e.cause}`) });
    case "bound": return t("ev.bound", { rate: rateOf(e.rate) });
    case "gave": return t("ev.gave", { name: nm(e.giver), other: nm(e.receiver), n: e.count });
    case "dealt": return e.seat === mySeat() ? t("ev.dealt") : null;
    case "drew_cards": return e.seat === mySeat() ? t("ev.drew_cards", { cards: cardsText(e.cards) }) : null;
    case "gave_cards": return t("ev.gave_cards", { name: nm(e.giver), other: nm(e.receiver), cards: cardsText(e.cards) });
    default: return null;
  }
}

function appendLog(e, scroll = true) {
  const text = describe(e);
  if (!text) return;
  const log = $("log");
  const li = el("li", { class: `ev ev-${e.type}` }, text);
  log.appendChild(li);
  while (log.children.length > 300) log.firstChild.remove();
  if (scroll) log.scrollTop = log.scrollHeight;
}

function redrawLog() {
  $("log").replaceChildren();
  for (const e of events.slice(-300)) appendLog(e, false);
  $("log").scrollTop = $("log").scrollHeight;
}

// ---- keyboard --------------------------------------------------------------------

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (["input", "select", "textarea"].includes(tag)) return;
  const click = (id) => { const b = $(id); if (b && !b.disabled) { b.click(); e.preventDefault(); } };
  switch (e.key) {
    case "c": case "C": click("challenge"); break;
    case "d": case "D": click("doubt"); break;
    case "p": case "P": click("pass"); break;
    case "a": case "A": click("accept"); break;
    case "?": $("help").showModal(); e.preventDefault(); break;
    case "l": case "L": toggleLang(); break;
    default: break;
  }
}

// ---- start -----------------------------------------------------------------------

async function main() {
  initPage();
  $("help-open").addEventListener("click", () => $("help").showModal());
  document.addEventListener("keydown", onKey);
  onLangChange(() => { setConn($("conn").dataset.state || "table.connecting"); redrawLog(); render(); });
  try {
    const invite = params.get("invite");
    if (invite) {
      info = await api(`/api/invites/${encodeURIComponent(invite)}`);
      tableId = info.table_id;
      rememberSeat(tableId, { invite });
    } else if (tableId) {
      info = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    } else {
      notice(t("table.notFound"));
      return;
    }
  } catch (e) {
    notice(e.status === 404 ? t("table.notFound") : (e.code === "network" ? t("err.network") : e.message));
    return;
  }
  mine = seatAt(tableId);
  render();
  connect();
  document.body.dataset.ready = "1";
}

main();
