// The table page: joins by invite, keeps the seat token, follows the table over a
// WebSocket (resuming with since=n), and renders the seat's view and legal moves: the
// seats round the felt, your hand docked at the bottom, the action bar under it.
import { api, backoffDelay, forgetSeat, lastName, onRetrying, rememberName, rememberSeat, seatAt } from "./api.js";
import { bluffCenter, bluffControls, bluffReveal, bluffSeatExtra } from "./bluff.js";
import { callText, cardEl, rankLabel, stackEl } from "./cards.js";
import { el, rerender } from "./dom.js";
import { currentLang, errorText, initPage, onLangChange, ordinal, t, toggleLang } from "./i18n.js";
import {
  classTitle, exchangePairs, liarCenter, liarControls, liarFlags, liarReveal, liarSeatExtra, lockedRate, resetIfNew,
  selectable, selectedCards, toggleCard,
} from "./liar.js";
import { avatarEl, displayName } from "./people.js";
import { optionRuleLink, ruleLinks } from "./rulelinks.js";
import { ruleValue } from "./played.js";
import { bigMoment, flashFlag, motion } from "./motion.js";
import { hintEl, suggestionEl } from "./hint.js";
import { contribution } from "./contribute.js";
import { describeEvent } from "./describe.js";
import { ratingChange } from "./ratingchange.js";
import { chatMessage, initChat, reactionAt, renderChat } from "./chat.js";
import { me } from "./me.js";
import { describeControl, offerLine, rematchEls, removeSeatButton, seatTools } from "./control.js";

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
let retry = 0; // failed connections in a row: the next waits longer (reset by a state)
let retryHint = null; // seconds the server asked to wait before reconnecting (unavailable)
let comingBack = false; // a socket closed by an unavailable server: told until the next state
let connects = 0; // sockets opened: an action sent on an earlier one is sent again
let pending = null; // the action sent and not yet answered: {id, action, key, sentOn, tries}
let pendingTimer = null;
let msgId = 0;
let suggestion = null; // the adviser's answer (a `suggestion` message) for the state it names
let suggestAsked = -1; // the state `n` a suggestion was asked at (one ask a position)
const evidenceCache = new Map();
let copiedUntil = 0;
let moves = 0; // public moves seen: a reveal clears itself at the next one
let revealAt = -1; // `moves` when the last challenge or doubt happened
let revealOpen = false;
let resultsHidden = false;
let clockEnds = null; // {seat, at (performance.now() ms), seconds}
const bubbles = new Map(); // seat -> {text, until}
let matchResults = []; // the standings of each game of this match so far (O7)
let replaying = true; // events of the first batch are history: no motion, no sound
let endedInHistory = null; // the game_over of that history when no move was made after it
// A Liar match between games: {game (0-based, the one that ended), standings, winner,
// reveal (the doubt that ended it, shown first), revealSeen}; null once dismissed.
let between = null;
let lastDoubt = null; // the last doubt's event, with the draw it cost (for `between`)

function seatName(i) {
  if (i === mySeat()) return t("table.you");
  return fullName(i);
}

// The seat's own name (yours too): what the others see.
function fullName(i) {
  const s = info?.seats[i];
  if (names[i]) return displayName(names[i]);
  if (!s) return `#${i + 1}`;
  return s.name ? displayName(s.name) : t("seat.empty");
}

// A seat as the object of a sentence: "Taro doubts you." (not "You").
function objectName(i) { return i === mySeat() ? t("table.youObject") : fullName(i); }

function allNames() { return (info?.seats || []).map((_, i) => seatName(i)); }

function mySeat() { return mine && mine.token ? mine.seat : null; }

// ``rules``: the codes a refusal cites (params.rules), each linked to its rule.
function notice(text, rules = null) {
  const box = $("notice");
  box.textContent = text;
  const links = ruleLinks(rules);
  if (links) box.append(links);
  box.hidden = !text;
  if (text) setTimeout(() => { if (box.textContent === text) box.hidden = true; }, 6000);
}

function errNotice(e) {
  notice(e.code === "network" ? t("err.network") : errorText(e.code, e.params, e.message), e.params?.rules);
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
  if (hintsOn()) query.set("hints", "1"); // the server computes hints only for those who look
  query.set("batch", "1"); // an action's events and state in one frame
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?${query}`);
  socket = ws;
  setConn(retry ? "table.reconnecting" : "table.connecting");
  // An open socket is not yet a healthy one (a server may close it at once, 1008): the
  // backoff is reset only by the catch-up's state message (onMessage).
  ws.onopen = () => {
    connects += 1;
    setConn("table.connected");
    document.body.dataset.connects = String(Number(document.body.dataset.connects || 0) + 1);
  };
  ws.onmessage = (m) => {
    if (ws !== socket) return; // a socket being replaced says nothing more
    let message;
    try { message = JSON.parse(m.data); } catch (e) { console.error(e); return; }
    for (const one of message.type === "batch" ? message.messages : [message]) {
      try { onMessage(one); } catch (e) { console.error(e); }
    }
  };
  ws.onclose = (ev) => {
    if (ws !== socket) return;
    socket = null;
    if (ev.code === 4404) { notice(t("table.notFound")); return; }
    if (ev.code === 4403) { // the token holds no seat (left, or the host removed it)
      if (mine?.token) notice(t("control.seatLost"));
      const invite = mine?.invite; // (with it, one may sit again while a seat is free)
      forgetSeat(tableId);
      mine = invite ? { invite } : null;
      if (invite) rememberSeat(tableId, mine);
    }
    retry += 1;
    setConn("table.reconnecting");
    // Up to 0.5 s, 1 s, 2 s ... 10 s at random (a restarted server is not met by every
    // page at the same instant), after the server's hint if it gave one.
    retryTimer = setTimeout(connect, backoffDelay(retry - 1, retryHint));
    retryHint = null;
  };
}

// Back online: do not wait for the old socket to time out; resume from the last event.
window.addEventListener("online", () => {
  if (socket) socket.close(); else if (retryTimer) connect();
});
window.addEventListener("offline", () => setConn("table.reconnecting"));

function sendRaw(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { notice(t("table.reconnecting")); return false; }
  socket.send(JSON.stringify(message));
  return true;
}

// The key names this action on this state: sent again (its answer was lost with a server,
// the person clicked again), the server acknowledges the action made already. Until its
// answer comes it is pending: sent again after `unavailable` (with a backoff) and on the
// next socket if this one closes first.
function send(action) {
  clearTimeout(pendingTimer);
  pending = { id: ++msgId, action, key: `${state?.n ?? -1}:${action}`.slice(0, 64), sentOn: 0, tries: 0 };
  sendRaw(actMessage());
  if (socket) pending.sentOn = connects;
}

function actMessage() { return { type: "act", action: pending.action, id: pending.id, key: pending.key }; }

function resendPending() {
  pendingTimer = null;
  if (!pending || !socket || socket.readyState !== WebSocket.OPEN) return; // on the next socket
  pending.sentOn = connects;
  socket.send(JSON.stringify(actMessage()));
}

const RETRIED = new Set(["unavailable", "busy", "rate_limited", "internal"]); // not made: send again
const PASSED = new Set(["not_your_turn", "game_over", "no_game"]); // a resent action's moment passed
const ACT_RETRIES = 40; // refusals of one action in a row (a minute or more) before it is dropped

function busy(on) {
  document.body.dataset.retrying = on ? "1" : "";
  if (on) notice(t("net.retrying")); else if ($("notice").textContent === t("net.retrying")) notice("");
}
onRetrying(busy);

// The answer to the pending action: its ack, or a refusal (retried when the server says
// nothing was done and it is passing).
function answered(m) {
  if (m.type === "ack") { pending = null; busy(false); return; }
  if (RETRIED.has(m.code) && pending.tries + 1 < ACT_RETRIES) {
    pending.tries += 1;
    busy(true);
    pendingTimer = setTimeout(resendPending, backoffDelay(pending.tries - 1, m.retry_after ?? null));
    return;
  }
  const resent = pending.tries > 0 || pending.sentOn !== connects;
  pending = null;
  busy(false);
  if (!(resent && PASSED.has(m.code))) notice(errorText(m.code, m.params, m.message), m.params?.rules);
}

const MOVES = new Set(["called", "challenged", "played", "passed", "doubted", "accepted", "gave"]);

function onMessage(m) {
  switch (m.type) {
    case "welcome": info = m.table; break;
    case "table": info = m.table; break;
    case "event":
      if (m.n <= lastN) return; // already seen (a resumed stream never repeats, but be safe)
      lastN = m.n;
      onEvent(m.event);
      return;
    case "state":
      state = m;
      retry = 0; // the catch-up arrived whole: this connection works
      if (pending && pending.sentOn !== connects && !pendingTimer) resendPending(); // lost with the last socket
      if (comingBack) { comingBack = false; if (!pending) busy(false); }
      clockEnds = m.clock ? { seat: m.clock.seat, at: performance.now() + m.clock.left * 1000, seconds: m.clock.seconds } : null;
      { const given = contribution(tableId, m.fairness, mySeat()); if (given) sendRaw(given); }
      break;
    case "ack": if (pending && m.id === pending.id) answered(m); return;
    case "error":
      if (pending && m.id === pending.id) { answered(m); return; }
      if (typeof m.id === "string" && m.id.startsWith("suggest:")) { // may be asked again
        suggestAsked = -1; notice(errorText(m.code, m.params, m.message)); break;
      }
      if (m.code === "unavailable") { // the socket is closing: come back after the hint
        retryHint = m.retry_after ?? null; comingBack = true; busy(true); return;
      }
      if (m.code !== "left") notice(errorText(m.code, m.params, m.message), m.params?.rules);
      return;
    case "hurry": if (!m.granted) notice(t("table.hurryRefused")); return;
    case "suggestion": suggestion = m; break; // shown while its position is the present one
    default: chatMessage(m); return;
  }
  if (m.type === "state" && replaying) {
    replaying = false; // what follows happens now: shown moving
    // Joined (or reloaded) after a game ended and before the next began: its ending is
    // still the present, so its results or between-games screen are shown as if just now.
    if (endedInHistory) gameEnded(endedInHistory);
    endedInHistory = null;
  }
  render();
}

function onEvent(e) {
  if (e.type === "options" && info) info = { ...info, options: { chat: e.chat, hints: e.hints } };
  if (e.type === "game_started") {
    names = e.names; moves = 0; revealAt = -1; resultsHidden = false; bubbles.clear();
    matchResults = [];
    between = null;
    endedInHistory = null;
  }
  if (e.type === "game_over" && e.standings) matchResults.push(e.standings); // each game of a match
  if (e.type === "game_over") { bubbles.clear(); if (replaying) endedInHistory = e; else gameEnded(e); }
  if (e.type === "doubted") lastDoubt = { ...e, drawer: null, drawn: 0 };
  if (e.type === "drew" && lastDoubt && lastDoubt.drawer === null && moves === revealAt) {
    lastDoubt = { ...lastDoubt, drawer: e.seat, drawn: e.count };
  }
  if (MOVES.has(e.type)) {
    moves += 1;
    endedInHistory = null; // the next game of the match is under way
    revealOpen = false;
    if (e.type === "challenged" || e.type === "doubted") { revealAt = moves; revealOpen = true; }
  }
  events.push(e);
  appendLog(e);
  if (e.type === "rematch" && e.answer === "offer" && !replaying) resultsHidden = false; // the offer shows
  const seat = e.seat ?? e.doubter ?? e.challenger ?? e.giver;
  const bubble = bubbleText(e);
  if (bubble && seat !== undefined && !replaying) bubbles.set(seat, { text: bubble, until: Date.now() + 2600 });
  if (!replaying) { motion(e, { me: mySeat() }); soundFor(e); momentFor(e); }
}

// A game ended just now. When a challenge or doubt ended it, its reveal is shown first and
// the results wait for the reader (the button in the reveal, or "Results"). A Liar match's
// game that is not its last gets the between-games screen: places, classes, the exchange.
function gameEnded(e) {
  $("moment").replaceChildren(); // the ending speaks for itself
  between = null; // an earlier game's screen, never dismissed, gives way to this one's
  const byReveal = revealOpen && revealAt === moves;
  const matchGoesOn = info.game === "liar" && info.games_per_match > 1 && matchResults.length < info.games_per_match;
  if (matchGoesOn) {
    between = { game: matchResults.length - 1, standings: e.standings, winner: e.winner,
      reveal: byReveal && lastDoubt ? lastDoubt : null, revealSeen: !byReveal };
    revealOpen = false;
  } else if (byReveal) {
    resultsHidden = true;
  }
}

// Big moments (a revolution, a J-back, an 8-cut, a rate lock): a word over the felt, a
// sound when sound is on.
function momentFor(e) {
  let key = null;
  let detail = "";
  if (e.type === "order_changed" && e.cause !== "flush") key = `moment.${e.cause.replace(" ", "_")}`;
  else if (e.type === "bound") {
    key = "moment.bound";
    const next = state?.view ? lockedRate({ ...state.view, bound: true, field: [{ rate: e.rate }] }) : null;
    detail = next ? t("liar.boundNext", { rate: rankLabel(next) }) : "";
  } else if (e.type === "played" && e.rate === "8" && info.rules?.eight_cut) key = "moment.eight_cut";
  if (!key) return;
  const kind = key.slice("moment.".length);
  bigMoment($("moment"), t(key), detail, kind);
  const flag = { revolution: "flag-revolution", jack_back: "flag-jack-back", six_up: "flag-jack-back", bound: "flag-bound", eight_cut: "flag-eight-cut" }[kind];
  requestAnimationFrame(() => flashFlag($(flag))); // once the state that follows has drawn it
  chime();
}

// ---- joining, starting, rematch -----------------------------------------------

async function join(form) {
  const name = form.elements.name.value.trim();
  if (!name) { notice(t("home.needName")); return; }
  rememberName(name);
  try {
    const path = mine?.invite ? `/api/invites/${encodeURIComponent(mine.invite)}/join`
      : `/api/tables/${encodeURIComponent(tableId)}/join`; // a public table: no invite needed
    const joined = await api(path, { method: "POST", body: { name }, retry: true });
    rememberSeat(tableId, { seat: joined.seat, token: joined.token });
    mine = seatAt(tableId);
    if (socket) socket.close(); // reconnect with the token
  } catch (e) { errNotice(e); }
}

// Leave and Resign (confirmed), in the status bar during a game and in the lobby before it.
function seatToolEls() {
  return seatTools({ tableId, info, state, me: mySeat(), token: mine?.token, redraw: render, onError: errNotice,
    done: (kind) => {
      if (kind !== "leave") return;
      rememberSeat(tableId, { seat: null, token: null }); // a spectator from now on
      mine = seatAt(tableId);
      if (socket) socket.close();
    } });
}

// A seat as named in a control event (its own name, yours too: "Alice offers a
// rematch."); a seat emptied since, by its number.
function controlName(s) {
  return info.seats[s]?.taken || names[s] ? fullName(s) : t("control.seatN", { n: s + 1 });
}

async function command(kind) {
  try {
    await api(`/api/tables/${encodeURIComponent(tableId)}/${kind}`,
      { method: "POST", body: { token: mine.token || mine.host_token }, retry: true });
  } catch (e) { errNotice(e); }
}

// ---- rendering -------------------------------------------------------------------

function render() {
  if (!info) return;
  const status = state?.status ?? info.status;
  const view = state?.view;
  $("lobby").hidden = status !== "waiting";
  $("board").hidden = !view;
  document.body.dataset.status = status;
  document.body.dataset.n = String(state?.n ?? -1); // lets tests wait for the next state
  document.body.dataset.game = info.game;
  renderInvite(status);
  if (status === "waiting") renderLobby();
  else if ($("lobby").childElementCount) rerender($("lobby")); // (its buttons are gone: one #leave)
  if (view) renderBoard(view);
  rerender($("seat-tools"), status === "playing" ? seatToolEls() : null); // (a game over: in the results)
  const betweenOn = Boolean(between && between.revealSeen && status === "playing" && view);
  $("results").hidden = !betweenOn && (status !== "finished" || !view || resultsHidden);
  $("show-results").hidden = status !== "finished" || !view || !resultsHidden;
  $("results").classList.toggle("between", betweenOn);
  if (betweenOn) renderBetween(view);
  else if (status === "finished" && view) renderResults(view);
  presence();
  renderChat();
  renderWatchers();
}

// How many watch the table (spectators at every worker), for players and spectators alike.
function renderWatchers() {
  const n = info.spectators || 0;
  $("watchers").hidden = n === 0;
  $("watchers").dataset.count = String(n);
  // On a phone the bar shows the short form; screen readers hear the sentence.
  rerender($("watchers"), el("span", { class: "watchers-short", "aria-hidden": "true" }, t("table.watchersShort", { n })),
    el("span", { class: "watchers-long" }, n === 1 ? t("table.watchers.one") : t("table.watchers", { n })));
}

// The invite link with its copy button: in the lobby while seats are free (once the
// game has started nobody can join: it is gone).
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

function renderInvite() { $("invite-box").hidden = true; }

function rulesEls() {
  const rules = info.rules || {};
  const items = Object.entries(rules).filter(([, v]) => v !== false && v !== null)
    .map(([k, v]) => el("li", {}, el("strong", {}, t(`opt.${k}`)), v === true ? "" : `: ${ruleValue(k, v)}`, " ",
      el("small", { class: "muted" }, t(`opt.${k}.desc`)), " ", optionRuleLink(k)));
  if (info.games_per_match > 1) items.push(el("li", {}, el("strong", {}, t("home.games")), `: ${info.games_per_match}`));
  items.push(el("li", {}, el("strong", {}, t("home.clock")), ": ",
    info.turn_seconds ? t("home.clockSeconds", { n: info.turn_seconds }) : t("home.clockOff")));
  if (info.rated) items.unshift(el("li", { id: "rated-rule" }, el("strong", {}, t("rated.table"))));
  return [el("h2", {}, t("home.rules")), el("ul", { class: "rules-list", id: "rules-list" }, items)];
}

function hostName() {
  const host = info.seats[0];
  return host?.name && !host.bot ? host.name : null;
}

function renderLobby() {
  const seats = info.seats;
  const free = seats.filter((s) => !s.taken);
  const me = mySeat();
  const invited = me === null && mine?.invite;
  const heading = invited && hostName()
    ? t("table.invitedBy", { name: hostName(), game: t(`game.${info.game}`) })
    : t(`game.${info.game}`);
  const parts = [el("h1", {}, heading), free.length ? inviteEls() : null, rulesEls(),
    el("h2", {}, t("home.seats")),
    el("ol", { class: "lobby-seats", id: "lobby-seats" }, seats.map((s, i) => el("li", { class: s.taken ? "taken" : "free" },
      s.taken ? avatarEl(s.name, i, { bot: Boolean(s.bot) }) : null,
      el("span", {}, s.taken ? fullName(i) : t("seat.empty")),
      i === me ? el("span", { class: "badge you" }, t("table.you")) : null,
      s.bot ? el("span", { class: "badge" }, t("seat.bot")) : null,
      mine?.host_token && s.taken && i !== me
        ? removeSeatButton({ tableId, seat: i, name: fullName(i), hostToken: mine.host_token, onError: errNotice, redraw: render })
        : null)))];
  const typed = $("join-name")?.value; // a redraw must not wipe a name being typed
  if (me === null && free.length && (mine?.invite || info.visibility === "public")) { // an invite, or a public table
    parts.push(el("form", { class: "join", id: "join-form", onsubmit: (e) => { e.preventDefault(); join(e.target); } },
      el("h2", {}, t("table.joinHeading")),
      el("label", { class: "form-field" }, el("span", {}, t("home.name")),
        el("input", { name: "name", id: "join-name", maxlength: "32", value: typed ?? lastName(), required: true, autocomplete: "nickname" })),
      info.rated ? el("p", { class: "rated-guest" }, t("rated.guest"), " ", el("a", { href: "/account" }, t("rated.signup"))) : null,
      el("button", { type: "submit", class: "primary", id: "join" }, t("table.join"))));
  } else if (me === null) {
    parts.push(el("p", {}, free.length ? t("table.spectating") : t("table.full")));
  }
  const host = Boolean(mine?.host_token);
  let status = free.length ? t("table.waiting") : host ? t("table.ready") : t("table.readyGuest", { name: hostName() || "" });
  parts.push(el("p", { class: "muted", id: "lobby-status" }, status));
  if (me !== null) parts.push(el("div", { class: "button-row seat-tools" }, seatToolEls()));
  if (!free.length && host) { // the host starts; a friend waits for them
    parts.push(el("button", { type: "button", class: "primary", id: "start", onclick: () => command("start") }, t("table.start")));
  }
  rerender($("lobby"), parts);
}

function ctxFor(view) {
  const me = mySeat();
  const legal = state.to_move === me && me !== null ? state.legal : null;
  return {
    view, legal, names: allNames(), send, stateKey: `${state.game}:${state.n}`, me,
    redraw: () => renderBoard(view),
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

function turnText(view) {
  const me = mySeat();
  if (state.status === "finished") return t("turn.over");
  if (state.to_move === null) return t("turn.dealing");
  if (state.to_move === me) return t("turn.yours");
  return t("turn.of", { name: seatName(state.to_move) });
}

function whereText(view) {
  if (info.game === "bluff") return t("table.round", { n: view.round + 1 });
  if (info.games_per_match > 1) return t("table.gameOf", { n: view.game + 1, total: info.games_per_match });
  return null;
}

function renderBoard(view) {
  const ctx = ctxFor(view);
  const me = mySeat();
  const status = state.status;
  const turn = $("turn");
  const where = status === "finished" ? null : whereText(view);
  const mine_ = state.to_move === me && me !== null && status !== "finished" && !info.seats[me]?.bot;
  rerender(turn, where ? el("span", { class: "where" }, where) : null,
    el("span", { class: "whose", id: "whose" }, mine_ ? "▶ " : "", turnText(view)),
    mine_ && clockEnds ? el("span", { class: "clock", dataset: { seat: me } }) : null);
  turn.className = `turn${mine_ ? " yours" : ""}`;
  document.body.classList.toggle("my-turn", mine_);

  const n = view.hand_sizes.length;
  const order = [];
  for (let k = 1; k <= n; k++) order.push(((me ?? -1) + k + n) % n);
  const others = me === null ? [...Array(n).keys()] : order.filter((s) => s !== me);
  rerender($("opponents"), others.map((s, k) => seatBox(view, s, k, others.length)));
  $("opponents").dataset.count = String(others.length);

  if (info.game === "bluff") rerender($("felt"), bluffCenter(ctx));
  else { resetIfNew(ctx.stateKey); rerender($("felt"), liarCenter(ctx)); }
  $("flags-row").hidden = info.game !== "liar";
  if (info.game === "liar") rerender($("flags-row"), liarFlags(ctx));
  renderReveal(view, ctx);

  rerender($("me"), myArea(view, ctx));
  const controls = info.game === "bluff" ? bluffControls(ctx) : liarControls(ctx);
  // The honest hint and the suggested move, above the controls; none where the table's
  // hints are off (the host's choice, every rated table).
  if (ctx.legal && state.to_move === me && info.hints !== false && !info.rated) {
    controls.unshift(hintBox(judging(ctx.legal)));
  }
  rerender($("controls"), controls);
  $("controls").hidden = !controls.length;
  $("controls").setAttribute("aria-label", t("table.actions"));
  fitHand();
  tickClocks();
}

// The last challenge or doubt, over the felt until the next move; the button shows it again.
function renderReveal(view, ctx) {
  const layer = $("reveal-layer");
  if (between && !between.revealSeen && state.status === "playing") { // the doubt that ended a match's game, before its places
    const panel = liarReveal(ctx, between.reveal);
    panel.append(el("div", { class: "button-row" }, el("button", { type: "button", class: "primary", id: "reveal-results",
      onclick: () => { between.revealSeen = true; render(); } }, t("end.seeResults"))));
    rerender(layer, panel);
    $("show-reveal").hidden = true;
    return;
  }
  const list = info.game === "bluff" ? view.history : view.doubts;
  const last = list.length ? list[list.length - 1] : null;
  const showing = last && revealOpen && (revealAt === moves || state.status === "finished" || revealOpen === "asked");
  if (showing) {
    // (the server sends the last rounds only: history_from counts those left out)
    const count = (view.history_from || 0) + list.length;
    const panel = info.game === "bluff" ? bluffReveal(ctx, last, count) : liarReveal(ctx, last);
    panel.prepend(el("button", { type: "button", class: "close", id: "reveal-close", "aria-label": t("table.close"),
      onclick: () => { revealOpen = false; render(); } }, "×"));
    if (state.status === "finished" && resultsHidden) { // the reveal that ended the game, then the results
      panel.append(el("div", { class: "button-row" }, el("button", { type: "button", class: "primary", id: "reveal-results",
        onclick: () => { revealOpen = false; resultsHidden = false; render(); } }, t("end.seeResults"))));
    }
    rerender(layer, panel);
  } else rerender(layer);
  const again = $("show-reveal");
  again.hidden = !last || Boolean(showing);
  again.textContent = info.game === "bluff" ? t("bluff.lastRound") : t("liar.lastDoubt");
  again.onclick = () => { revealOpen = "asked"; render(); };
}

// Seats round the felt: the others on an arc over it (you sit at the bottom).
function seatPlace(k, count) {
  if (count === 1) return [50, 12];
  const span = Math.min(240, 40 * count + 40);
  const angle = (90 + span / 2 - (k * span) / (count - 1)) * Math.PI / 180;
  return [50 + 40 * Math.cos(angle), 46 - 36 * Math.sin(angle)];
}

function seatBox(view, s, k, count) {
  const seat = info.seats[s] || {};
  const finished = state.status === "finished";
  const active = state.to_move === s && !finished;
  const away = !seat.bot && !seat.connected && seat.taken;
  const extra = info.game === "bluff" ? bluffSeatExtra(view, s) : liarSeatExtra(view, s);
  const [x, y] = seatPlace(k, count);
  const bubble = bubbles.get(s);
  const label = [fullName(s), t("seat.cards", { n: view.hand_sizes[s] }), active ? t("seat.toPlay") : null, away ? t("seat.offline") : null]
    .filter(Boolean).join(", ");
  return el("div", { class: `seat${active ? " active" : ""}${seat.bot ? " bot" : ""}${away ? " away" : ""}`, id: `seat-${s}`,
    dataset: { seat: s }, style: { "--x": `${x}%`, "--y": `${y}%` }, role: "group", "aria-label": label },
  avatarEl(names[s] || seat.name, s, { bot: Boolean(seat.bot), away }),
  el("div", { class: "seat-body" },
    el("div", { class: "seat-name", title: fullName(s) }, fullName(s)),
    el("div", { class: "seat-line" },
      el("span", { class: "count", title: t("seat.cards", { n: view.hand_sizes[s] }) }, `🂠 ${view.hand_sizes[s]}`),
      extra),
    active ? el("div", { class: "seat-turn" }, seat.bot ? el("span", { class: "thinking" }, t("seat.thinking")) : t("seat.toPlay"),
      clockEnds && clockEnds.seat === s ? el("span", { class: "clock", dataset: { seat: s } }) : null) : null,
    away ? el("div", { class: "seat-away" }, "⚠ ", t("seat.offline")) : null),
  bubble && bubble.until > Date.now() ? el("div", { class: "bubble", role: "status" }, bubble.text) : null,
  reactionAt(s));
}

function myArea(view, ctx) {
  const me = mySeat();
  if (me === null) return [el("p", { class: "muted spectating", id: "spectating" }, t("table.spectating"))];
  const hand = view.hand || [];
  const canSelect = info.game === "liar" && selectable(ctx.legal);
  const chosen = info.game === "liar" ? selectedCards() : [];
  const extra = info.game === "bluff" ? bluffSeatExtra(view, me) : liarSeatExtra(view, me);
  const bubble = bubbles.get(me);
  return [
    el("div", { class: `my-name${state.to_move === me ? " active" : ""}` },
      avatarEl(names[me] || info.seats[me]?.name, me),
      el("span", { class: "name" }, fullName(me)), " ",
      el("span", { class: "badge you" }, t("table.you")),
      info.seats[me]?.bot && state.status === "playing" ? el("span", { class: "badge", id: "bot-for-you" }, t("control.botForYou")) : null, extra,
      bubble && bubble.until > Date.now() ? el("span", { class: "bubble mine", role: "status" }, bubble.text) : null,
      reactionAt(me)),
    el("div", { class: `hand${canSelect ? " selectable" : ""}`, id: "hand", role: "group", "aria-label": t("table.hand") },
      hand.map((c, i) => {
        const card = cardEl(c, { button: canSelect, selected: chosen.includes(c) });
        card.id = `card-${c}`;
        card.style.setProperty("--i", i);
        if (canSelect) card.addEventListener("click", () => { toggleCard(c); renderBoard(view); });
        return card;
      })),
  ];
}

// The hand in one row (two if need be): cards overlap rather than wrap out of sight.
function fitHand() {
  const hand = $("hand");
  if (!hand || !hand.children.length) return;
  const cards = [...hand.children];
  const width = hand.clientWidth;
  const cardW = cards[0].getBoundingClientRect().width || 48;
  const rows = cards.length * (cardW + 4) > width * 1.8 ? 2 : 1;
  const perRow = Math.ceil(cards.length / rows);
  const room = perRow > 1 ? (width - cardW) / (perRow - 1) : cardW;
  const step = Math.min(cardW + 6, room);
  hand.style.setProperty("--overlap", `${Math.min(6, step - cardW)}px`);
  hand.classList.toggle("two-rows", rows === 2);
  hand.style.setProperty("--per-row", String(perRow));
}
window.addEventListener("resize", () => fitHand());

// ---- the ending -----------------------------------------------------------------

function placeOf(standings, seat) {
  const i = (standings || []).findIndex((p) => p.includes(seat));
  return i < 0 ? null : i + 1;
}

function ratingText({ before, after }) {
  const delta = Math.round(after) - Math.round(before);
  return t("rated.change", { before: Math.round(before), after: Math.round(after), delta: delta >= 0 ? `+${delta}` : `${delta}` });
}

function renderResults(view) {
  const standings = view.standings || [];
  const game = state.game;
  const me = mySeat();
  const base = `/api/tables/${encodeURIComponent(tableId)}/games/${game}`;
  const place = me === null ? null : placeOf(standings, me);
  const n = info.seats.length;
  const headline = place === null ? t("end.heading") : place === 1 ? t("end.won") : t("end.yourPlace", { place: ordinal(place), n });
  const rows = standings.flatMap((group, i) => group.map((s) => el("tr", { class: s === me ? "me" : "" },
    el("td", { class: "place" }, ordinal(i + 1)),
    el("td", {}, avatarEl(names[s], s, { bot: Boolean(info.seats[s]?.bot) }), " ", seatName(s)),
    el("td", {}, info.game === "bluff"
      ? (view.eliminated.includes(s) ? t("end.outAt", { n: view.eliminated.length - view.eliminated.indexOf(s) }) : t("end.lastIn"))
      : t("seat.cards", { n: view.hand_sizes[s] })))));
  const parts = [el("h2", { id: "results-heading" }, headline), offerLine(state.rematch, controlName),
    el("table", { class: "standings", id: "standings" },
      el("caption", { class: "sr-only" }, t("end.standings")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("end.place")), el("th", { scope: "col" }, t("end.player")),
        el("th", { scope: "col" }, info.game === "bluff" ? t("end.how") : t("end.left")))),
      el("tbody", {}, rows))];
  const rated = info.rated && me !== null ? ratingChange(tableId, game, render) : null;
  if (rated) parts.push(el("p", { class: "rating-change", id: "rating-change" }, ratingText(rated)));
  if (info.games_per_match > 1) {
    const games = matchResults.map((standings, i) => ({ number: i, standings }));
    if (games.length) {
      parts.push(el("h3", {}, t("end.match")));
      parts.push(el("table", { class: "match-table", id: "match-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("end.player")),
          games.map((g) => el("th", { scope: "col" }, t("table.game", { n: g.number + 1 }))),
          el("th", { scope: "col" }, t("end.class")))),
        el("tbody", {}, info.seats.map((_, s) => el("tr", { class: s === me ? "me" : "" },
          el("th", { scope: "row" }, seatName(s)),
          games.map((g) => el("td", {}, ordinal(placeOf(g.standings, s)))),
          el("td", {}, classTitle(placeOf(games[games.length - 1].standings, s), n)))))));
    }
  }
  const row = [];
  row.push(...rematchEls({ tableId, offer: state.rematch, me, token: mine?.token || mine?.host_token,
    people: info.seats.filter((s) => s.person).length, onError: errNotice }));
  row.push(el("a", { class: "button secondary", id: "download", href: `${base}/record`, download: `usotsuki-${info.game}-${tableId}-${game}.json` }, t("end.download")));
  row.push(el("a", { class: "button secondary", id: "replay", href: `/replay.html?t=${encodeURIComponent(tableId)}&game=${game}` }, t("end.replay")));
  row.push(el("a", { class: "button secondary", id: "review", href: `/replay.html?t=${encodeURIComponent(tableId)}&game=${game}&review=1` }, t("review.open")));
  row.push(el("a", { class: "button secondary", id: "new-table", href: "/" }, t("end.newTable")));
  row.push(el("button", { type: "button", class: "secondary", id: "hide-results", onclick: () => { resultsHidden = true; render(); } }, t("end.hide")));
  row.push(...seatToolEls());
  parts.push(el("div", { class: "button-row" }, row));
  rerender($("results"), parts);
}

// A Liar match between two games: the places of the game just ended, the classes they
// give, and the O7 exchange to come before the next game is played.
function renderBetween(view) {
  const n = info.seats.length;
  const me = mySeat();
  const classes = view.classes.length ? view.classes : between.standings.flat();
  const rows = between.standings.flatMap((group, i) => group.map((s) => el("tr", { class: s === me ? "me" : "" },
    el("td", { class: "place" }, ordinal(i + 1)),
    el("td", {}, avatarEl(names[s], s, { bot: Boolean(info.seats[s]?.bot) }), " ", seatName(s)),
    el("td", { class: "class-title" }, classTitle(classes.indexOf(s) + 1, n)))));
  const who = (s) => (s === me ? t("table.youObject") : seatName(s));
  const swaps = exchangePairs(classes).map(([higher, lower, count]) => el("li", {},
    t(lower === me ? "between.gives.you" : "between.gives", { name: who(lower), title: classTitle(classes.indexOf(lower) + 1, n), other: who(higher), otherTitle: classTitle(classes.indexOf(higher) + 1, n), n: count }),
    " ",
    t(higher === me ? "between.returns.you" : "between.returns", { name: who(higher), other: who(lower), n: count })));
  const winner = between.winner;
  const headline = winner === null || winner === undefined ? t("between.noWinner", { n: between.game + 1 })
    : winner === me ? t("between.youWon", { n: between.game + 1 }) : t("between.won", { n: between.game + 1, name: seatName(winner) });
  rerender($("results"), [
    el("h2", { id: "results-heading" }, headline),
    el("div", { class: "between-body" }, el("table", { class: "standings", id: "between-standings" },
      el("caption", { class: "sr-only" }, t("end.standings")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("end.place")), el("th", { scope: "col" }, t("end.player")),
        el("th", { scope: "col" }, t("end.class")))),
      el("tbody", {}, rows)),
    el("div", {}, el("h3", {}, t("between.exchange", { n: between.game + 2 })),
      el("ul", { class: "exchange-list", id: "exchange-list" }, swaps),
      el("p", { class: "muted small" }, t("between.why")))),
    el("div", { class: "button-row" }, el("button", { type: "button", class: "primary", id: "between-continue",
      onclick: () => { between = null; render(); } }, t("between.continue", { n: between.game + 2 })))]);
}

// ---- the log -------------------------------------------------------------------

function describe(e) {
  return describeEvent(e, { me: mySeat(), name: seatName, objectName }) ?? describeControl(e, controlName) ?? null;
}

// The words in the bubble at the seat that acted.
function bubbleText(e) {
  switch (e.type) {
    case "called": return callText(e.call);
    case "challenged": return t("bubble.challenge");
    case "played": return t("bubble.played", { n: e.count, rate: rankLabel(e.rate) });
    case "passed": return t("bubble.pass");
    case "doubted": return t("bubble.doubt");
    case "accepted": return t("bubble.accept");
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

// ---- presence: clocks, title, favicon, sounds, fast-forward ------------------------

function tickClocks() {
  for (const node of document.querySelectorAll(".clock")) {
    if (!clockEnds) { node.textContent = ""; continue; }
    const left = Math.max(0, Math.ceil((clockEnds.at - performance.now()) / 1000));
    node.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    node.classList.toggle("urgent", left <= 10);
    node.setAttribute("aria-label", t("table.clock", { n: left }));
  }
}
setInterval(tickClocks, 250);
// Bubbles fade by themselves.
setInterval(() => {
  const now = Date.now();
  let changed = false;
  for (const [seat, b] of bubbles) if (b.until <= now) { bubbles.delete(seat); changed = true; }
  if (changed && state?.view) renderBoard(state.view);
}, 500);

let baseTitle = document.title;
let wasMyTurn = false;

function favicon(on) {
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><circle cx='8' cy='8' r='7' fill='${on ? "%23f2c14e" : "%231f6b45"}'/></svg>`;
  let link = document.querySelector("link[rel=icon]");
  link.href = `data:image/svg+xml,${svg}`;
}

function presence() {
  const me = mySeat();
  const myTurn = Boolean(state && state.status === "playing" && me !== null && state.to_move === me);
  document.title = myTurn ? `▶ ${t("turn.yours")} — ${baseTitle}` : baseTitle;
  if (myTurn !== wasMyTurn) {
    favicon(myTurn);
    if (myTurn && !replaying) beep(660);
  }
  wasMyTurn = myTurn;
  // Out of a Bluff game with nobody else to watch for: offer to fast-forward the bots.
  const view = state?.view;
  const out = info?.game === "bluff" && view && state.status === "playing" && me !== null && view.eliminated.includes(me)
    && info.seats.every((s, i) => s.bot || view.eliminated.includes(i));
  $("hurry").hidden = !out;
}

// The honest hint, behind a toggle remembered in this browser (off at first): open, the
// server adds it to this socket's state messages whenever there is a claim to judge.
function hintsOn() { return localStorage.getItem("usotsuki.hints") === "on"; }
function judging(legal) {
  if (!legal) return false;
  return info.game === "bluff" ? legal.includes("challenge") : Boolean(legal.doubt);
}
function hintBox(judge) {
  const on = hintsOn();
  const suggested = suggestion && suggestion.n === state.n && suggestion.game === state.game ? suggestion : null;
  return el("div", { class: "hint-box" }, judge && on ? hintEl(state.hint) : null,
    suggested ? suggestionEl(info.game, suggested) : null,
    judge ? el("button", { type: "button", class: "link-button", id: "hint-toggle", "aria-pressed": on ? "true" : "false",
      onclick: toggleHints }, t(on ? "hint.hide" : "hint.show")) : null,
    suggested ? null : el("button", { type: "button", class: "link-button", id: "suggest-move",
      disabled: suggestAsked === state.n, onclick: askSuggestion },
    t(suggestAsked === state.n ? "hint.suggesting" : "hint.suggest")));
}
// The adviser's move for this position, computed by the server off its event loop.
function askSuggestion() {
  if (!socket || socket.readyState !== WebSocket.OPEN || suggestAsked === state.n) return;
  suggestAsked = state.n;
  socket.send(JSON.stringify({ type: "suggest", id: `suggest:${++msgId}` }));
  render();
}
function toggleHints() {
  localStorage.setItem("usotsuki.hints", hintsOn() ? "off" : "on");
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "hints", on: hintsOn() }));
  render();
}

let audio = null;
function soundOn() { return localStorage.getItem("usotsuki.sound") === "on"; }
function beep(freq) {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch (e) { /* no audio here */ }
}
// Two rising notes for a big moment.
function chime() {
  beep(660);
  setTimeout(() => beep(880), 140);
}

function soundFor(e) {
  if (e.type === "challenged" || e.type === "doubted") beep(300);
  else if (MOVES.has(e.type)) beep(520);
}

function renderSoundButton() {
  const b = $("sound");
  b.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  b.textContent = soundOn() ? t("table.soundOn") : t("table.soundOff");
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
    case "h": case "H": click("hint-toggle"); break;
    case "s": case "S": click("suggest-move"); break;
    case "Escape":
      if (sideOpen()) toggleSide(false);
      else if (between) { if (!between.revealSeen) between.revealSeen = true; else between = null; render(); }
      else if (revealOpen) { revealOpen = false; render(); }
      break;
    default: break;
  }
}

// ---- start -----------------------------------------------------------------------

// On a narrow screen the table talk is a drawer over the table: its × button, Escape or a
// tap outside it closes it, and the focus goes back to its toggle.
function sideOpen() { return $("side").classList.contains("open"); }

function toggleSide(open) {
  const side = $("side");
  const now = open ?? !sideOpen();
  const was = sideOpen();
  side.classList.toggle("open", now);
  $("log-toggle").setAttribute("aria-expanded", now ? "true" : "false");
  if (now) { $("log").scrollTop = $("log").scrollHeight; if (!was) $("side-close").focus({ preventScroll: true }); }
  else if (was) $("log-toggle").focus({ preventScroll: true });
}

function badLink(text) {
  notice("");
  rerender($("lobby"), el("h1", {}, text), el("p", {}, t("table.badLinkHelp")),
    el("a", { class: "button primary", href: "/", id: "go-home" }, t("table.goHome")));
  $("lobby").hidden = false;
}

async function main() {
  initPage();
  baseTitle = document.title;
  $("help-open").addEventListener("click", () => $("help").showModal());
  $("log-toggle").addEventListener("click", () => toggleSide());
  $("side-close").addEventListener("click", () => toggleSide(false));
  document.addEventListener("pointerdown", (e) => {
    if (sideOpen() && !$("side").contains(e.target) && !$("log-toggle").contains(e.target)) toggleSide(false);
  });
  $("hurry").addEventListener("click", () => sendRaw({ type: "hurry", id: ++msgId }));
  $("show-results").addEventListener("click", () => { resultsHidden = false; render(); });
  $("sound").addEventListener("click", () => {
    localStorage.setItem("usotsuki.sound", soundOn() ? "off" : "on");
    renderSoundButton();
    if (soundOn()) beep(660);
  });
  renderSoundButton();
  initChat({ tableId: () => tableId, send: sendRaw, seat: mySeat, info: () => info, status: () => state?.status ?? info?.status,
    hostToken: () => mine?.host_token,
    changed: () => render(), notice });
  document.addEventListener("keydown", onKey);
  onLangChange(() => { setConn($("conn").dataset.state || "table.connecting"); renderSoundButton(); baseTitle = document.title; redrawLog(); render(); });
  try {
    const invite = params.get("invite");
    if (invite) {
      info = await api(`/api/invites/${encodeURIComponent(invite)}`, { retry: true });
      tableId = info.table_id;
      rememberSeat(tableId, { invite });
    } else if (tableId) {
      info = await api(`/api/tables/${encodeURIComponent(tableId)}`, { retry: true });
    } else {
      badLink(t("table.notFound"));
      document.body.dataset.ready = "1";
      return;
    }
  } catch (e) {
    if (e.status === 404 || e.status === 410) badLink(e.status === 410 ? errorText("expired", e.params) : t("table.notFound"));
    else errNotice(e);
    document.body.dataset.ready = "1";
    return;
  }
  document.body.classList.add(`game-${info.game}`); // the help shows this game's rules
  mine = seatAt(tableId);
  render();
  await me().catch(() => {}); // the socket opens with the session cookie: chat knows who
  connect();
  document.body.dataset.ready = "1";
  document.documentElement.dataset.lang = currentLang();
}

main();
