// The home page's challenges: those to you (a bot's, if you take them: the Account page)
// to accept or decline, and yours still open, to withdraw. Asked again every few seconds
// while there may be some; accepting takes you to the table, seated.
import { api, rememberSeat } from "./api.js";
import { el, rerender } from "./dom.js";
import { errorText, onLangChange, sentenceGap, t } from "./i18n.js";
import { me } from "./me.js";
import { botName, playerHref } from "./played.js";

const EVERY = 5000; // ms between two reads
const box = document.getElementById("challenges");
const incoming = document.getElementById("challenges-in");
const outgoing = document.getElementById("challenges-out");
const problem = document.getElementById("challenges-error");
let last = null; // the server's last answer

function who(party) {
  return [el("a", { href: playerHref(party.id) }, party.id.startsWith("bot:") ? botName(party.name) : party.name),
    party.bot && !party.id.startsWith("bot:") ? [" ", el("span", { class: "badge" }, t("profile.kind.bot"))] : null];
}

// "Bluff, 2 players, short deck, 30 s a move"
function terms(c) {
  return t("challenge.terms.line", { game: t(`game.${c.game}`), n: c.players, preset: t(`preset.${c.preset}`),
    seconds: c.turn_seconds });
}

function say(e) { problem.textContent = e.code === "network" ? t("err.network") : errorText(e.code, e.params, e.message); }

async function answer(button, c, accept) {
  button.disabled = true;
  try {
    const path = `/api/challenges/${encodeURIComponent(c.id)}/${accept ? "accept" : "decline"}`;
    const seat = await api(path, { method: "POST", retry: true });
    if (accept) {
      rememberSeat(seat.table_id, { seat: seat.seat, token: seat.token });
      location.href = `/table.html?t=${encodeURIComponent(seat.table_id)}`;
      return;
    }
  } catch (e) { say(e); }
  await read();
}

// A challenge of yours accepted while you were away: your seat is in the challenge.
async function toTable(button, c) {
  button.disabled = true;
  try {
    const seat = await api(`/api/challenges/${encodeURIComponent(c.id)}`, { retry: true });
    if (seat.token) rememberSeat(seat.table_id, { seat: seat.seat, token: seat.token });
    location.href = `/table.html?t=${encodeURIComponent(seat.table_id)}`;
  } catch (e) { say(e); button.disabled = false; }
}

async function withdraw(button, c) {
  button.disabled = true;
  try { await api(`/api/challenges/${encodeURIComponent(c.id)}`, { method: "DELETE", retry: true }); } catch (e) { say(e); }
  await read();
}

function draw() {
  if (!last) return;
  box.hidden = !last.incoming.length && !last.outgoing.length;
  rerender(incoming, last.incoming.map((c) => el("li", { class: "challenge-in", dataset: { id: c.id } },
    el("span", {}, t("challenges.from"), sentenceGap(), who(c.from), el("br"), el("small", { class: "muted" }, terms(c))),
    el("span", { class: "button-row" },
      el("button", { type: "button", class: "primary", id: `accept-${c.id}`, onclick: (e) => answer(e.currentTarget, c, true) },
        t("challenges.accept")),
      el("button", { type: "button", class: "secondary", id: `decline-${c.id}`, onclick: (e) => answer(e.currentTarget, c, false) },
        t("challenges.decline"))))));
  rerender(outgoing, last.outgoing.map((c) => el("li", { class: "challenge-out", dataset: { id: c.id } },
    el("span", {}, t("challenges.to"), sentenceGap(), who(c.to), el("br"), el("small", { class: "muted" }, terms(c))),
    c.state === "accepted"
      ? el("button", { type: "button", class: "primary", id: `to-table-${c.id}`, onclick: (e) => toTable(e.currentTarget, c) },
        t("challenges.toTable"))
      : el("button", { type: "button", class: "secondary", onclick: (e) => withdraw(e.currentTarget, c) },
        t("challenge.withdraw")))));
}

async function read() {
  try {
    last = await api("/api/challenges");
    problem.textContent = "";
  } catch (e) {
    if (e.status === 403 || e.status === 401) { last = null; return false; } // a bot's session: none here
    say(e);
    return true;
  }
  draw();
  return last.from_bots || last.incoming.length > 0 || last.outgoing.length > 0;
}

async function main() {
  if (!box) return;
  onLangChange(draw);
  try { await me(); } catch (e) { return; }
  // Only a player who may have challenges keeps asking: one who takes bots' challenges,
  // or has some open.
  if (await read()) setInterval(read, EVERY);
}

main();
