// A bot's profile (/players/{id}): challenge it. The server says whether this player may
// be challenged and with what (GET /api/challenges/to/{id}); the form sends the challenge
// and the page waits for the answer (a long poll), then goes to the table with the seat
// kept like any other (api.js). A house bot accepts at once. A reload resumes the wait.
import { api, rememberSeat } from "./api.js";
import { el, rerender } from "./dom.js";
import { errorText, onLangChange, t } from "./i18n.js";
import { me } from "./me.js";
import { botName } from "./played.js";

const WAIT = 20; // seconds of each long poll
const CLOCKS = [10, 30, 60, 120]; // the times per move offered (the server allows 5 to 300)
const box = document.getElementById("challenge");
const playerId = decodeURIComponent(location.pathname.split("/")[2] || "");
let options = null; // the server's answer: whom and what
let waiting = null; // the open challenge being waited for
let ended = null; // the state it ended in, when not accepted
let problem = "";

function name() { return options.level ? botName(options.to.name) : options.to.name; }

function chosen(id, fallback) { return document.getElementById(id)?.value ?? fallback; }

function select(id, label, choices, value) {
  return el("label", { class: "form-field" }, el("span", {}, label),
    el("select", { id, onchange: () => draw() }, choices.map(([v, text]) => {
      const option = new Option(text, String(v));
      option.selected = String(v) === String(value);
      return option;
    })));
}

function form() {
  const games = Object.keys(options.games);
  const game = games.includes(chosen("challenge-game")) ? chosen("challenge-game") : games[0];
  const presets = options.games[game];
  return el("form", { id: "challenge-form", class: "challenge-form", novalidate: true, onsubmit: send },
    el("div", { class: "quick-fields" },
      select("challenge-game", t("quick.game"), games.map((g) => [g, t(`game.${g}`)]), game),
      select("challenge-players", t("quick.players"), [2, 3, 4, 5, 6, 7, 8].map((n) => [n, n]),
        chosen("challenge-players", 2)),
      select("challenge-preset", t("quick.preset"), presets.map((p) => [p, t(`preset.${p}`)]),
        presets.includes(chosen("challenge-preset")) ? chosen("challenge-preset") : presets[0]),
      select("challenge-clock", t("challenge.clock"), CLOCKS.map((s) => [s, t("challenge.seconds", { n: s })]),
        chosen("challenge-clock", 30))),
    el("p", { class: "muted" }, t("challenge.terms")),
    el("button", { type: "submit", class: "primary", id: "challenge-send" }, t("challenge.send")));
}

function waitingView() {
  return [
    el("p", { id: "challenge-status", role: "status" }, t("challenge.waiting", { name: name() })),
    el("button", { type: "button", class: "secondary", id: "challenge-withdraw", onclick: withdraw },
      t("challenge.withdraw")),
  ];
}

function draw() {
  if (!options) return;
  rerender(box,
    el("h2", { id: "challenge-heading" }, t("challenge.heading", { name: name() })),
    ended ? el("p", { id: "challenge-ended", role: "status" }, t(`challenge.ended.${ended}`, { name: name() })) : null,
    problem ? el("p", { class: "error", role: "alert" }, problem) : null,
    waiting ? waitingView() : form());
}

function seated(answer) {
  rememberSeat(answer.table_id, { seat: answer.seat, token: answer.token });
  location.href = `/table.html?t=${encodeURIComponent(answer.table_id)}`;
}

function refused(e) {
  problem = e.code === "network" ? t("err.network") : errorText(e.code, e.params, e.message);
  draw();
}

async function send(event) {
  event.preventDefault();
  document.getElementById("challenge-send").disabled = true;
  problem = "";
  ended = null;
  const body = {
    to: playerId, game: chosen("challenge-game"), players: Number(chosen("challenge-players")),
    preset: chosen("challenge-preset"), turn_seconds: Number(chosen("challenge-clock")),
  };
  try {
    const answer = await api("/api/challenges", { method: "POST", body });
    if (answer.token) { seated(answer); return; }
    waiting = answer;
    draw();
    await follow();
  } catch (e) {
    if (e.code === "challenge_open" && e.params?.id) { // one sent before (another tab)
      waiting = { id: e.params.id };
      draw();
      await follow();
      return;
    }
    refused(e);
  }
}

// Wait for the answer: accepted, the challenge names the challenger's seat.
async function follow() {
  while (waiting) {
    let answer;
    try {
      answer = await api(`/api/challenges/${encodeURIComponent(waiting.id)}?wait=${WAIT}`, { retry: true });
    } catch (e) {
      if (e.status === 404) { waiting = null; draw(); return; }
      refused(e);
      await new Promise((done) => setTimeout(done, 2000));
      continue;
    }
    if (answer.token) { seated(answer); return; }
    if (answer.state === "accepted" && answer.table_id) { location.href = `/table.html?t=${encodeURIComponent(answer.table_id)}`; return; }
    if (answer.state !== "open") {
      waiting = null;
      ended = answer.state;
      draw();
      return;
    }
  }
}

async function withdraw(event) {
  event.currentTarget.disabled = true;
  try {
    await api(`/api/challenges/${encodeURIComponent(waiting.id)}`, { method: "DELETE", retry: true });
  } catch (e) {
    if (e.code !== "challenge_ended") { refused(e); return; }
  }
  // The long poll sees the end and says it.
}

async function main() {
  if (!box || !playerId) return;
  try {
    const [who, profile] = await Promise.all([
      me(), api(`/api/players/${encodeURIComponent(playerId)}`, { retry: true })]);
    if (!profile.bot || who.id === playerId) return; // people challenge bots, not themselves
    options = await api(`/api/challenges/to/${encodeURIComponent(playerId)}`);
  } catch (e) {
    return; // not a player one may challenge: no form
  }
  box.hidden = false;
  onLangChange(draw);
  draw();
  try { // a challenge sent before (and the page reloaded): wait for it again
    const mine = await api("/api/challenges");
    const open = mine.outgoing.find((c) => c.to.id === playerId && c.state === "open");
    if (open) { waiting = open; draw(); await follow(); }
  } catch (e) { /* the form stays */ }
}

main();
