// The replay viewer: steps through a finished game with every card face up. Each frame
// comes from the server, which replays the record through the rules cores.
import { api, seatAt } from "./api.js";
import { callText, cardEl, liarActionText, rankLabel } from "./cards.js";
import { el, rerender } from "./dom.js";
import { errorText, initPage, onLangChange, ordinal, sentences, t } from "./i18n.js";
import { liarFlags } from "./liar.js";
import { avatarEl, seatLabel } from "./people.js";
import { attachReview, renderReview } from "./review.js";
import { showFairMark } from "./fair-mark.js";

const $ = (id) => document.getElementById(id);
let data = null;
let index = 0;
let horizon = null; // the last step shown while a move is retried (review.js), else null
let timer = null; // autoplay
let you = null; // the reader's seat in this game ("You"), when the server or this browser knows it

// Hooks for other modules (e.g. a review panel): the step on show, and a way to move.
// Each render also dispatches "replay:step" on document with {index, frame, replay}.
export function currentStep() { return index; }
export function replayData() { return data; }
export function goTo(i) { go(i); }

function nameOf(seat) { return seatLabel(data.names, seat, you); }

// A sentence's key in the second person when it is about the reader ("You lose the round").
function yours(seat, key) { return seat === you ? `${key}.you` : key; }

function notice(text) { $("notice").textContent = text; $("notice").hidden = !text; }

// A frame's view leaves out the lists that grow through a round or game (Bluff calls
// and history, Liar Game doubts); its "grow" gives each as {keep, add}: the previous
// frame's first `keep` items, then `add`. Rebuilt here once, the frames sharing arrays.
function expand(frames) {
  const lists = {};
  for (const frame of frames) {
    frame.grown = {};
    for (const [key, { keep, add }] of Object.entries(frame.grow || {})) {
      let list = lists[key] || [];
      if (keep < list.length) list = list.slice(0, keep);
      list.push(...add);
      lists[key] = list;
      frame.grown[key] = [list, list.length];
    }
  }
}

function viewOf(frame) {
  const view = { ...frame.view };
  for (const [key, [list, length]] of Object.entries(frame.grown)) view[key] = list.slice(0, length);
  return view;
}

function show(replay, source, auto = false, seat = null) {
  expand(replay.frames);
  data = replay;
  you = seat;
  index = 0;
  $("viewer").hidden = false;
  // A game on show: the file picker folds into one line (another file can still be opened).
  $("open-panel").classList.add("compact");
  $("jump").max = String(data.frames.length - 1);
  horizon = null;
  attachReview({ data, go, source, auto, you, hold });
  renderMoves();
  render();
}

function lastShown() { return horizon ?? data.frames.length - 1; }

function go(i) {
  if (!data) return;
  index = Math.max(0, Math.min(lastShown(), i));
  if (index === lastShown()) stop();
  render();
}

// Retrying a move (review.js): no step after ``i`` is shown (board, move list, controls)
// until the player has chosen; null shows them all again.
function hold(i) {
  horizon = i;
  $("jump").max = String(lastShown());
  renderMoves();
  go(index);
}

function stop() {
  clearInterval(timer);
  timer = null;
  const b = $("autoplay");
  b.textContent = t("replay.play");
  b.setAttribute("aria-pressed", "false");
}

function toggleAutoplay() {
  if (timer) { stop(); return; }
  if (index >= data.frames.length - 1) go(0);
  const b = $("autoplay");
  b.textContent = t("replay.pause");
  b.setAttribute("aria-pressed", "true");
  timer = setInterval(() => go(index + 1), 1200 / Number($("speed").value));
}

function label(frame) {
  const name = frame.actor === null ? "" : nameOf(frame.actor);
  if (frame.kind === "deal") {
    return data.game === "bluff" ? t("replay.dealRound", { n: frame.round + 1 }) : t("replay.dealGame", { n: frame.round + 1 });
  }
  const text = data.game === "bluff" && frame.action !== "challenge" ? callText(frame.action) : liarActionText(frame.action);
  return t("replay.action", { name, action: text });
}

// The move list beside the board: one button per step, the current one marked.
function renderMoves() {
  const list = $("moves");
  rerender(list, data.frames.map((frame, i) => el("li", { class: frame.kind,
    hidden: horizon !== null && i > horizon },
    el("button", { type: "button", class: `move${i === index ? " current" : ""}`, id: `move-${i}`,
      "aria-current": i === index ? "step" : null, onclick: () => go(i) },
    el("span", { class: "n" }, String(i + 1)), " ", label(frame)))));
}

function markMove() {
  for (const b of document.querySelectorAll("#moves .move.current")) { b.classList.remove("current"); b.removeAttribute("aria-current"); }
  const b = $(`move-${index}`);
  if (!b) return;
  b.classList.add("current");
  b.setAttribute("aria-current", "step");
  const list = $("moves");
  const top = b.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - b.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
}

function render() {
  const frame = data.frames[index];
  $("jump").value = String(index);
  $("step").textContent = t("replay.step", { i: index + 1, n: data.frames.length });
  $("step-label").textContent = label(frame);
  $("first").disabled = $("back").disabled = index === 0;
  $("last").disabled = $("forward").disabled = index === lastShown();
  const view = viewOf(frame);
  if (data.game === "bluff") renderBluff(frame, view);
  else renderLiar(frame, view);
  markMove();
  document.body.dataset.step = String(index);
  document.dispatchEvent(new CustomEvent("replay:step", { detail: { index, frame, replay: data } }));
  renderReview(index);
}

function handsBox(frame, highlight, extra) {
  const pool = [...(highlight || [])];
  return frame.hands.map((hand, seat) => el("div", {
    class: `replay-hand${frame.view.to_move === seat ? " active" : ""}`, id: `replay-seat-${seat}` },
  avatarEl(data.names[seat], seat), " ", el("strong", {}, nameOf(seat)), " ", extra(seat),
  el("div", { class: "cards" }, hand.map((c) => {
    const i = pool.indexOf(c);
    if (i >= 0) pool.splice(i, 1);
    return cardEl(c, { small: true, highlight: i >= 0, dim: highlight && i < 0 });
  }))));
}

function standingsEl(view) {
  if (!view.standings) return null;
  return el("ol", { class: "standings", id: "replay-standings" }, view.standings.map((place, i) => el("li", {},
    el("span", { class: "place" }, ordinal(i + 1)), " ", place.map((s) => nameOf(s)).join(", "))));
}

function renderBluff(frame, view) {
  const parts = [];
  const current = view.calls.length ? view.calls[view.calls.length - 1] : null;
  parts.push(el("div", { class: "current-call" }, el("span", { class: "label" }, t("bluff.current")),
    current ? el("strong", { class: "call" }, callText(current.call))
      : el("span", { class: "muted" }, view.phase === "over" ? t("turn.over") : t("bluff.noCall"))));
  if (view.calls.length) {
    parts.push(el("ol", { class: "call-history" }, view.calls.map((c) => el("li", {}, el("span", { class: "who" }, nameOf(c.seat)), " ", callText(c.call)))));
  }
  const r = frame.reveal;
  if (r) {
    parts.push(el("section", { class: `reveal ${r.call_true ? "true" : "false"}`, id: "replay-reveal" },
      el("p", {}, t(r.challenger === you ? "bluff.challengedBy.you" : r.caller === you ? "bluff.challengedBy.yours" : "bluff.challengedBy",
        { challenger: nameOf(r.challenger), caller: nameOf(r.caller) })),
      el("p", { class: "verdict" }, t(r.call_true ? "bluff.revealTrue" : "bluff.revealFalse", { call: callText(r.call) })),
      el("p", { class: "loser" }, sentences(t(yours(r.loser, "bluff.loses"), { name: nameOf(r.loser) }), r.eliminated ? t(yours(r.loser, "bluff.out"), { name: nameOf(r.loser) }) : null))));
  }
  parts.push(standingsEl(view));
  rerender($("replay-felt"), parts);
  rerender($("replay-hands"), handsBox(frame, r ? r.evidence : null, (seat) => (view.eliminated.includes(seat)
    ? el("span", { class: "badge out" }, t("seat.out")) : el("span", { class: "muted" }, t("seat.losses", { n: view.losses[seat], max: view.max_cards })))));
}

// A face-up card of a play declared `rate`: a card of another rank is a lie, marked.
function lieMarked(code, rate) {
  const lie = code[0] !== rate;
  const card = cardEl(code, { small: true, highlight: !lie });
  if (lie) { card.classList.add("lie"); card.setAttribute("aria-label", `${card.getAttribute("aria-label")} (${t("replay.lie")})`); }
  return card;
}

function renderLiar(frame, view) {
  const parts = [];
  parts.push(el("div", { class: "flags" }, liarFlags({ view })));
  parts.push(el("div", { class: "stock" }, t("liar.stock", { n: view.stock_size })));
  parts.push(el("div", { class: "field", id: "replay-field" }, frame.field_cards.length
    ? frame.field_cards.map((cards, i) => el("div", { class: `field-play${i === frame.field_cards.length - 1 ? " current" : ""}` },
      el("div", { class: "field-cards" }, cards.map((c) => lieMarked(c, view.field[i].rate))),
      el("span", { class: "play-label" }, nameOf(view.field[i].seat), " ", el("strong", { class: "rate" }, rankLabel(view.field[i].rate)))))
    : el("span", { class: "muted" }, t("liar.emptyField"))));
  const doubt = frame.events.find((e) => e.type === "doubted");
  if (doubt) {
    const d = view.doubts[view.doubts.length - 1];
    parts.push(el("section", { class: `reveal ${doubt.truthful ? "true" : "false"}`, id: "replay-reveal" },
      el("p", {}, t(doubt.doubter === you ? "liar.doubtBy.you" : doubt.doubted === you ? "liar.doubtBy.yours" : "liar.doubtBy",
        { doubter: nameOf(doubt.doubter), doubted: nameOf(doubt.doubted) })),
      el("div", { class: "cards" }, doubt.cards.map((c) => lieMarked(c, doubt.rate))),
      el("p", { class: "verdict" }, t(yours(doubt.doubted, doubt.truthful ? "liar.doubtTruthful" : "liar.doubtLie"), { doubted: nameOf(doubt.doubted), rate: rankLabel(doubt.rate) })),
      d ? el("p", { class: "loser" }, t(yours(d.drawer, "liar.drew"), { name: nameOf(d.drawer), n: d.drawn })) : null));
  }
  parts.push(standingsEl(view));
  rerender($("replay-felt"), parts);
  rerender($("replay-hands"), handsBox(frame, null, (seat) => el("span", { class: "muted" }, t("seat.cards", { n: frame.hands[seat].length }))));
}

// The reader's seat in a table's game: the seat this browser took at the table, else the
// server's `you` (the seat of the player this browser's session is); null for others.
async function readerSeat(table, game) {
  const held = seatAt(table);
  if (held && held.token) return held.seat;
  try {
    const games = await api(`/api/tables/${encodeURIComponent(table)}/games`);
    return games.find((g) => String(g.number) === String(game))?.you ?? null;
  } catch (err) { return null; } // (the replay's own request says what went wrong)
}

async function main() {
  initPage();
  onLangChange(() => { if (data) { renderMoves(); render(); } if (!timer) stop(); });
  stop();
  $("autoplay").addEventListener("click", () => { if (data) toggleAutoplay(); });
  $("speed").addEventListener("change", () => { if (timer) { stop(); toggleAutoplay(); } });
  $("speed").setAttribute("aria-label", t("replay.speed"));
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(index - 1));
  $("forward").addEventListener("click", () => go(index + 1));
  $("last").addEventListener("click", () => go(Infinity));
  $("jump").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (!data || (e.target.tagName || "").toLowerCase() === "input" && e.target.type !== "range") return;
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: Infinity };
    if (e.key in moves) { stop(); go(moves[e.key]); e.preventDefault(); }
    if (e.key === " " && (e.target.tagName || "").toLowerCase() !== "button") { toggleAutoplay(); e.preventDefault(); }
  });
  $("record-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    notice("");
    try {
      // The file's exact bytes: JSON.parse would round a seed above 2^53 (Part 4 seeds
      // are any integer) and the server would refuse the record it no longer matches.
      file.text().then((text) => showFairMark({ record: JSON.parse(text) })) // checked in the page
        .catch(() => showFairMark({ record: {} }));
      const replay = await api("/api/replay", { method: "POST", raw: file });
      // A record of `usotsuki play` names its person "You": that seat is the reader's.
      show(replay, { raw: file }, false, replay.names.includes("You") ? replay.names.indexOf("You") : null);
    } catch (err) {
      notice(err.code === "network" ? t("err.network")
        : ["bad_json", "bad_request", "error"].includes(err.code) || /^the record is not (valid JSON|UTF-8)/.test(err.message) ? t("replay.badFile")
          : errorText(err.code, err.params, err.message));
    }
  });
  const params = new URLSearchParams(location.search);
  const table = params.get("t");
  if (table) {
    $("open-panel").hidden = true; // a table's game: no file to pick
    const game = params.get("game") || "0";
    const back = $("back-to-table");
    back.href = `/table.html?t=${encodeURIComponent(table)}`;
    back.hidden = false;
    try {
      const [replay, seat] = await Promise.all([
        api(`/api/tables/${encodeURIComponent(table)}/games/${encodeURIComponent(game)}/replay`), readerSeat(table, game)]);
      show(replay, { table, game }, params.get("review") === "1", seat);
      showFairMark({ table, game });
    } catch (err) { notice(errorText(err.code, err.params, err.message)); }
  }
  document.body.dataset.ready = "1";
}

main();
