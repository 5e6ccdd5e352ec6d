// Bluff at the table: the calls in the middle, the call picker, the challenge reveal.
// Every option offered comes from the server's legal list (B5-B7 live in the core).
import { callText, cardEl, rankLabel } from "./cards.js";
import { el } from "./dom.js";
import { sentenceGap, t } from "./i18n.js";

// The picker's choice so far: the call's tokens, type first ("two-pair", "K", ...).
let picked = [];
let pickedFor = null;

// The legal calls that start with `prefix`, as token lists.
function matching(legal, prefix) {
  return legal.filter((a) => a !== "challenge").map((a) => a.split(" "))
    .filter((tokens) => prefix.every((p, i) => tokens[i] === p));
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

function tokenLabel(kind, index, token) {
  if (index === 0) return t(`call.${token}`);
  return SUITS[token] || rankLabel(token);
}

export function bluffCenter(ctx) {
  const { view, names } = ctx;
  const current = view.calls.length ? view.calls[view.calls.length - 1] : null;
  const parts = [];
  parts.push(el("div", { class: "current-call", id: "current-call", "aria-live": "polite" },
    el("span", { class: "label" }, t("bluff.current")),
    current
      ? el("strong", { class: "call" }, callText(current.call))
      : el("span", { class: "muted" }, view.phase === "over" ? t("turn.over") : t("bluff.noCall")),
    current ? el("span", { class: "by" }, names[current.seat]) : null));
  parts.push(el("div", { class: "in-play" }, t("bluff.inPlay", { n: view.hand_sizes.reduce((a, b) => a + b, 0) })));
  if (view.calls.length) {
    parts.push(el("ol", { class: "call-history", id: "call-history", "aria-label": t("bluff.history") },
      view.calls.slice(-4).map((c) => el("li", {}, el("span", { class: "who" }, names[c.seat]), " ", callText(c.call)))));
  }
  return parts;
}

// The last challenge, every hand face up, the cards that bear on the call highlighted.
export function bluffReveal(ctx, result, count) {
  const { names } = ctx;
  const evidence = ctx.evidence(count - 1, result) || [];
  const pool = [...evidence];
  const verdict = result.call_true ? "bluff.revealTrue" : "bluff.revealFalse";
  const rows = result.hands.map((hand, seat) => (hand.length ? el("li", { class: "reveal-hand" },
    el("span", { class: "who" }, names[seat]),
    el("span", { class: "cards" }, hand.map((c) => {
      const i = pool.indexOf(c);
      if (i >= 0) pool.splice(i, 1);
      return cardEl(c, { small: true, highlight: i >= 0, dim: i < 0 });
    }))) : null));
  const by = result.challenger === ctx.me ? "bluff.challengedBy.you"
    : result.caller === ctx.me ? "bluff.challengedBy.yours" : "bluff.challengedBy";
  // The verdict and who loses first: with the hint open the box is short, and the hands
  // (the evidence) are what may scroll.
  return el("section", { class: `reveal ${result.call_true ? "true" : "false"}`, id: "reveal", role: "dialog", "aria-labelledby": "reveal-title" },
    el("h3", { id: "reveal-title" }, t("bluff.lastRound")),
    el("p", {}, t(by, { challenger: names[result.challenger], caller: names[result.caller] })),
    el("p", { class: "verdict" }, t(verdict, { call: callText(result.call) })),
    el("p", { class: "loser" }, t(result.loser === ctx.me ? "bluff.loses.you" : "bluff.loses", { name: names[result.loser] }),
      result.eliminated ? [sentenceGap(), el("strong", {}, t(result.loser === ctx.me ? "bluff.out.you" : "bluff.out", { name: names[result.loser] }))] : null),
    el("ul", { class: "reveal-hands" }, rows),
    el("p", { class: "muted small" }, t("bluff.evidence")));
}

export function bluffControls(ctx) {
  const { legal, send, stateKey } = ctx;
  if (!legal) { picked = []; return []; }
  if (pickedFor !== stateKey) { picked = []; pickedFor = stateKey; }
  const canChallenge = legal.includes("challenge");
  const calls = legal.filter((a) => a !== "challenge");
  const parts = [];
  if (calls.length) {
    const steps = [];
    // Offer the next token among the legal calls that match the choice so far.
    for (let depth = 0; ; depth++) {
      const options = [...new Set(matching(legal, picked.slice(0, depth)).map((tk) => tk[depth]).filter(Boolean))];
      if (!options.length) break;
      const kind = depth === 0 ? null : picked[0];
      const heading = depth === 0 ? t("bluff.type") : (kind === "straight-flush" && depth === 2 ? t("bluff.suit") : t("bluff.ranks"));
      steps.push(el("div", { class: "pick-step", role: "group", "aria-label": heading },
        el("span", { class: "label" }, heading),
        el("div", { class: "pick-options" }, options.map((opt) => el("button", {
          type: "button",
          class: `pick${picked[depth] === opt ? " chosen" : ""}${/^[HD]$/.test(opt) && depth === 2 ? " red" : ""}`,
          id: `pick-${depth}-${opt}`,
          "aria-pressed": picked[depth] === opt ? "true" : "false",
          dataset: { token: opt },
          onclick: () => { picked = [...picked.slice(0, depth), opt]; ctx.redraw(); },
        }, tokenLabel(kind, depth, opt))))));
      if (picked[depth] === undefined || !options.includes(picked[depth])) { picked = picked.slice(0, depth); break; }
    }
    const chosen = picked.join(" ");
    const complete = calls.includes(chosen);
    parts.push(el("div", { class: "picker", id: "picker" }, el("h3", {}, t("bluff.picker")), steps));
    parts.push(el("button", {
      type: "button", class: "primary", id: "make-call", disabled: !complete,
      onclick: () => { if (complete) send(chosen); },
    }, complete ? t("bluff.call", { call: callText(chosen) }) : t("bluff.call", { call: "…" })));
  } else if (canChallenge) {
    parts.push(el("p", { class: "muted" }, t("bluff.mustChallenge")));
  }
  if (canChallenge) {
    parts.push(el("button", { type: "button", class: "danger", id: "challenge", "aria-keyshortcuts": "C", onclick: () => send("challenge") },
      t("bluff.challenge")));
  }
  return parts;
}

export function bluffSeatExtra(view, seat) {
  const out = [];
  if (view.eliminated.includes(seat)) out.push(el("span", { class: "badge out" }, t("seat.out")));
  else out.push(el("span", { class: "losses", title: t("seat.lossesHelp", { n: view.max_cards }) }, t("seat.losses", { n: view.losses[seat], max: view.max_cards })));
  return out;
}
