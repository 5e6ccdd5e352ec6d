// What the people at a table control: the rematch offer (it starts once every person
// accepted; bots accept), leaving or resigning (a bot plays the seat on, told to all), the
// host's removal of a seat before the start. All text through t() and textContent.
import { api } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

let confirming = null; // "resign" | "leave": the button asks once more before it acts
let offerEnds = null; // {at (performance.now() ms)}: when the offer shown lapses
let shownOffer = null; // the state's offer that offerEnds was counted from

async function post(tableId, path, token, onError) {
  try {
    return await api(`/api/tables/${encodeURIComponent(tableId)}/${path}`,
      { method: "POST", body: { token }, retry: true });
  } catch (e) { onError(e); return undefined; }
}

// Resign (a game in play, your seat not a bot's yet) and Leave (any time), each confirmed
// by a second click; `done(kind)` runs once the server made it.
export function seatTools({ tableId, info, state, me, token, redraw, onError, done }) {
  if (me === null || !token) return [];
  const playing = (state?.status ?? info.status) === "playing";
  const resigned = Boolean(info.seats[me]?.bot);
  const tools = [];
  const ask = (kind, question) => {
    if (confirming !== kind) {
      tools.push(el("button", { type: "button", class: "secondary small", id: kind,
        onclick: () => { confirming = kind; redraw(); } }, t(`control.${kind}`)));
      return;
    }
    tools.push(el("span", { class: "confirm-row", role: "group", "aria-label": t(question) },
      el("span", { class: "confirm-question" }, t(question)),
      el("button", { type: "button", class: "danger small", id: `${kind}-confirm`, onclick: async () => {
        confirming = null;
        if (await post(tableId, kind, token, onError) !== undefined) done(kind);
        redraw();
      } }, t(`control.${kind}Yes`)),
      el("button", { type: "button", class: "secondary small", id: `${kind}-cancel`,
        onclick: () => { confirming = null; redraw(); } }, t("control.cancel"))));
  };
  if (playing && !resigned) ask("resign", "control.resignAsk");
  ask("leave", playing ? "control.leaveAskPlaying" : "control.leaveAsk");
  return tools;
}

// The host's button to free a taken seat before the start (not their own seat).
export function removeSeatButton({ tableId, seat, name, hostToken, onError, redraw }) {
  return el("button", { type: "button", class: "link-button remove-seat", id: `remove-seat-${seat}`,
    "aria-label": t("control.removeLabel", { name }),
    onclick: async () => { await post(tableId, `seats/${seat}/remove`, hostToken, onError); redraw(); } },
  t("control.remove"));
}

// The rematch in the results: offer it, accept it or decline it; who is awaited and for
// how long. `offer` is the state's (null: none stands); `people` counts the seats of persons.
export function rematchEls({ tableId, offer, me, token, people, onError }) {
  if (!token) return [];
  const accepted = offer && me !== null && offer.accepted.includes(me);
  const parts = [];
  if (!offer || !accepted) {
    const label = offer ? t("control.accept") : people > 1 ? t("end.rematch") : t("end.again");
    parts.push(el("button", { type: "button", class: "primary", id: "rematch",
      onclick: () => post(tableId, "rematch", token, onError) }, label));
  }
  if (offer) {
    parts.push(el("button", { type: "button", class: "secondary", id: "rematch-decline",
      onclick: () => post(tableId, "rematch/decline", token, onError) }, t("control.decline")));
  }
  return parts;
}

// The offer's standing in words, under the results' heading.
export function offerLine(offer, seatName) {
  if (offer !== shownOffer) { // a new state's offer: its time left counts from now
    shownOffer = offer;
    offerEnds = offer ? { at: performance.now() + offer.left * 1000 } : null;
  }
  if (!offer) return null;
  const by = offer.by === null ? t("control.host") : seatName(offer.by);
  const waiting = offer.waiting.map(seatName).join(", ");
  return el("p", { class: "rematch-offer", id: "rematch-offer", role: "status" },
    t("control.offer", { name: by }), " ",
    waiting ? t("control.waiting", { names: waiting }) : "", " ",
    el("span", { class: "offer-clock", id: "offer-clock" }, offerLeft()));
}

function offerLeft() {
  if (!offerEnds) return "";
  const left = Math.max(0, Math.ceil((offerEnds.at - performance.now()) / 1000));
  return left ? t("control.left", { n: left }) : t("control.lapsed");
}

// Counting the offer's time down (and saying when it lapsed).
setInterval(() => {
  const clock = document.getElementById("offer-clock");
  if (clock) clock.textContent = offerLeft();
}, 500);

// The log's line for a control event (null: not one of these).
export function describeControl(e, seatName) {
  if (e.type === "rematch") {
    const name = e.seat === null || e.seat === undefined ? t("control.host") : seatName(e.seat);
    return t(`control.ev.${e.answer}`, { name });
  }
  if (e.type === "seat") {
    const bot = e.bot ? t("control.ev.botPlays") : "";
    return `${t(`control.ev.${e.change}`, { name: seatName(e.seat) })}${bot ? ` ${bot}` : ""}`;
  }
  return undefined;
}
