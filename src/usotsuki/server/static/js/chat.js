// The table's chat, reactions and the host's options (PROTOCOL.md "chat", "react",
// "mute"; POST /api/tables/{id}/options). Every text is set as text (textContent through
// el()): a line that looks like markup or a link is shown as typed, never as markup or a link.
import { api } from "./api.js";
import { el, rerender } from "./dom.js";
import { errorText, t } from "./i18n.js";

export const REACTIONS = ["hello", "nice_bluff", "really", "laugh", "wow", "oops", "thinking", "good_game"];
const ICONS = { hello: "👋", nice_bluff: "😏", really: "🤨", laugh: "😂", wow: "😮", oops: "😅", thinking: "🤔", good_game: "🤝" };
const SHOWN_MS = 4000; // a reaction's bubble stays this long at its seat
const MAX_CHARS = 280;

const $ = (id) => document.getElementById(id);
const lines = new Map(); // line id -> line, in the order received (history first)
let muted = new Set();
let you = null; // this browser's player id (from chat_history)
const reacted = new Map(); // seat -> {reaction, until}
let ctx = null; // {tableId, send, seat, info, status, hostToken, changed, notice}

// The table page hands over what chat needs of it.
export function initChat(context) {
  ctx = context;
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (ctx.send({ type: "chat", text, id: `chat-${Date.now()}` })) input.value = "";
  });
  $("chat-input").maxLength = MAX_CHARS;
  for (const name of ["chat", "hints"]) {
    $(`option-${name}`).addEventListener("change", (e) => setOption(name, e.target.checked));
  }
}

// A socket message for chat: true when it was one.
export function chatMessage(m) {
  switch (m.type) {
    case "chat_history":
      you = m.you;
      muted = new Set(m.muted);
      for (const line of m.messages) lines.set(line.id, line);
      break;
    case "chat": lines.set(m.line.id, m.line); break;
    case "muted": muted = new Set(m.muted); break;
    case "reaction":
      if (muted.has(m.player)) return true;
      reacted.set(m.seat, { reaction: m.reaction, until: Date.now() + SHOWN_MS });
      setTimeout(() => ctx.changed(), SHOWN_MS + 50);
      ctx.changed();
      return true;
    default: return false;
  }
  renderChat();
  return true;
}

// The reaction bubble to show at a seat now, if any.
export function reactionAt(seat) {
  const shown = reacted.get(seat);
  if (!shown || shown.until <= Date.now()) return null;
  return el("div", { class: "bubble reaction", role: "status", dataset: { reaction: shown.reaction } },
    `${ICONS[shown.reaction]} ${t(`react.${shown.reaction}`)}`);
}

function lineEl(line) {
  const theirs = line.player && line.player !== you;
  const seat = line.seat === null || line.seat === undefined ? null : line.seat;
  return el("li", { class: `chat-line ${line.channel}`, dataset: { id: line.id, player: line.player || "", seat: seat ?? "" } },
    line.channel === "spectators" ? el("span", { class: "badge channel" }, t("chat.spectatorsTag")) : null,
    el("span", { class: "chat-name" }, line.name), el("span", { class: "chat-sep" }, ": "),
    el("span", { class: "chat-text" }, line.text),
    theirs ? el("span", { class: "chat-tools" },
      el("button", { type: "button", class: "link-button small mute", "aria-label": t("chat.muteName", { name: line.name }),
        onclick: () => mute(line.player, true) }, t("chat.mute")),
      el("button", { type: "button", class: "link-button small report", "aria-label": t("chat.reportName", { name: line.name }),
        onclick: () => report(line) }, t("chat.report"))) : null);
}

function mute(player, on) { ctx.send({ type: "mute", player, on }); }

async function report(line) {
  try {
    await api(`/api/tables/${encodeURIComponent(ctx.tableId())}/chat/${line.id}/report`, { method: "POST", body: {} });
    ctx.notice(t("chat.reported"));
  } catch (e) { ctx.notice(errorText(e.code, e.params, e.message)); }
}

async function setOption(name, on) {
  try {
    await api(`/api/tables/${encodeURIComponent(ctx.tableId())}/options`,
      { method: "POST", body: { token: ctx.hostToken(), [name]: on } });
  } catch (e) {
    ctx.notice(errorText(e.code, e.params, e.message));
    renderChat();
  }
}

// The chat panel: the lines one may read (none of a muted player's), the form while the
// chat is on, the reactions for a seated player, the host's switches.
export function renderChat() {
  const info = ctx?.info();
  if (!info) return;
  const options = info.options || { chat: true, hints: true };
  const seat = ctx.seat();
  const shown = [...lines.values()].filter((line) => !muted.has(line.player));
  const log = $("chat-log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  rerender(log, shown.map(lineEl));
  if (atEnd) log.scrollTop = log.scrollHeight;
  $("chat-empty").hidden = shown.length > 0;
  $("chat-form").hidden = !options.chat || !you;
  $("chat-off").hidden = options.chat;
  $("chat-input").placeholder = t(seat === null ? "chat.placeholderSpectators" : "chat.placeholder");
  rerender($("reactions"), seat === null ? [] : REACTIONS.map((r) =>
    el("button", { type: "button", class: "reaction-button", id: `react-${r}`, title: t(`react.${r}`), "aria-label": t(`react.${r}`),
      onclick: () => ctx.send({ type: "react", reaction: r }) }, ICONS[r])));
  $("reactions").hidden = seat === null;
  const host = Boolean(ctx.hostToken());
  $("host-options").hidden = !host;
  $("option-chat").checked = options.chat;
  $("option-hints").checked = options.hints;
  $("option-hints").disabled = Boolean(info.rated) || ctx.status() !== "waiting";
  const mutedList = $("muted-list");
  rerender(mutedList, [...muted].map((player) => {
    const name = [...lines.values()].find((line) => line.player === player)?.name || t("chat.someone");
    return el("li", {}, el("span", {}, name), " ",
      el("button", { type: "button", class: "link-button small unmute", onclick: () => mute(player, false) }, t("chat.unmute")));
  }));
  $("muted-box").hidden = muted.size === 0;
}
