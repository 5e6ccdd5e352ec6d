// The waiting view of quick match: the seek from the home page's "Play now" form
// (?game=&players=&preset=&bots=&rated=) is sent once, then the page asks the server
// (a long poll) until a table is made, offers bots when the server does, and goes to the
// table with the seat's token kept like any other seat's (api.js). Reloading the page
// resumes the same seek.
import { api, rememberSeat } from "./api.js";
import { el, rerender } from "./dom.js";
import { errorText, initPage, onLangChange, t } from "./i18n.js";
import { me } from "./me.js";

const WAIT = 20; // seconds of each long poll
const statusLine = document.getElementById("play-status");
const facts = document.getElementById("play-facts");
const offerBox = document.getElementById("play-offer");
const offerText = document.getElementById("play-offer-text");
const botsButton = document.getElementById("play-bots");
const cancelButton = document.getElementById("play-cancel");
const homeLink = document.getElementById("play-home");
const problem = document.getElementById("play-error");
let last = null; // the server's last answer
let lastAt = 0; // when it came (the time waited counts on between answers)
let stopped = false;
let leaving = false; // on the way to a table

function wanted() {
  const q = new URLSearchParams(location.search);
  const players = q.get("players");
  return {
    game: q.get("game") === "liar" ? "liar" : "bluff",
    players: players && players !== "any" ? Number(players) : null,
    preset: q.get("preset") || "standard",
    rated: q.get("rated") === "1",
    bots: ["ask", "yes", "no"].includes(q.get("bots")) ? q.get("bots") : "ask",
  };
}

function finish(messageKey) {
  stopped = true;
  cancelButton.hidden = true;
  offerBox.hidden = true;
  homeLink.hidden = false;
  if (messageKey) statusLine.textContent = t(messageKey);
}

function refused(e) {
  problem.textContent = e.code === "network" ? t("err.network") : errorText(e.code, e.params, e.message);
  if (e.code === "already_seated" && e.params?.table_id) {
    homeLink.hidden = false;
    homeLink.textContent = t("play.toTable");
    homeLink.href = `/table.html?t=${encodeURIComponent(e.params.table_id)}`;
    homeLink.removeAttribute("data-i18n");
  }
}

// Set a text only when it changes: the status line is a live region, read out each time.
function say(node, text) { if (node.textContent !== text) node.textContent = text; }

function render() {
  const s = last;
  if (!s) return;
  if (s.state === "waiting") {
    say(statusLine, t("play.looking", { game: t(`game.${s.game}`) }));
    rerender(facts,
      el("li", {}, s.waiting > 1 ? t("play.waiting", { n: s.waiting }) : t("play.waiting.one")),
      el("li", {}, t("play.waited", { n: Math.floor(s.waited + (Date.now() - lastAt) / 1000) })),
      el("li", {}, t("play.window", { n: Math.round(s.window), rating: Math.round(s.rating) })));
    offerBox.hidden = !s.offer;
    if (s.offer) say(offerText, t("play.offer", { level: t(`bot.${s.offer.bot}`) }));
  } else if (s.state === "matching") {
    say(statusLine, t("play.matching"));
    offerBox.hidden = true;
  }
}

function seated(s) {
  rememberSeat(s.table_id, { seat: s.seat, token: s.token });
  finish("play.matched");
  goTo(s.table_id);
}

function goTo(tableId) {
  leaving = true;
  location.href = `/table.html?t=${encodeURIComponent(tableId)}`;
}

// What the server said: go to the table, or keep waiting. Once the page is on its way
// to a table (the bots' answer and the long poll can both say so), later answers are
// ignored: a second navigation would abort the first.
function told(s) {
  if (leaving) return false;
  last = s;
  lastAt = Date.now();
  if (s.state === "matched") { seated(s); return false; }
  if (s.state === "idle") { finish("play.ended"); return false; }
  if (s.state === "seated") {
    finish(null);
    goTo(s.table_id);
    return false;
  }
  render();
  return true;
}

async function poll() {
  while (!stopped) {
    try {
      if (!told(await api(`/api/match?wait=${WAIT}`, { retry: true }))) return;
      problem.textContent = "";
    } catch (e) {
      if (stopped) return;
      refused(e);
      await new Promise((done) => setTimeout(done, 2000));
    }
  }
}

async function main() {
  initPage();
  onLangChange(render);
  botsButton.addEventListener("click", async () => {
    botsButton.disabled = true;
    try { told(await api("/api/match/bots", { method: "POST", retry: true })); } catch (e) { refused(e); }
    botsButton.disabled = false;
  });
  cancelButton.addEventListener("click", async () => {
    try {
      await api("/api/match", { method: "DELETE", retry: true });
      finish("play.stopped");
    } catch (e) { refused(e); }
  });
  try {
    await me();
    const now = await api("/api/match");
    const seek = wanted();
    // A reload resumes the seek; anything else starts this one.
    const same = now.state === "waiting" && now.game === seek.game && now.preset === seek.preset
      && (now.players ?? null) === seek.players && now.rated === seek.rated;
    if (now.state === "matching" || now.state === "matched" || same) {
      if (!told(now)) return;
    } else if (!told(await api("/api/match", { method: "POST", body: seek, retry: true }))) {
      return;
    }
  } catch (e) {
    refused(e);
    finish(null);
    return;
  }
  document.body.dataset.ready = "1";
  setInterval(() => { if (!stopped && last?.state === "waiting") render(); }, 1000);
  await poll();
}

main();
