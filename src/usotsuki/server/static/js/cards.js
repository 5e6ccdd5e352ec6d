// Cards as elements: rank and suit symbol, red hearts and diamonds; face-down backs.
import { t } from "./i18n.js";

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

export function rankLabel(rank) { return rank === "T" ? "10" : rank; }
export function suitSymbol(suit) { return SUIT_SYMBOL[suit] || suit; }

// "7H" -> element. Options: {button, selected, highlight, small}.
export function cardEl(code, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "span");
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  el.className = "card";
  if (suit === "H" || suit === "D") el.classList.add("red");
  if (opts.small) el.classList.add("small");
  if (opts.highlight) el.classList.add("highlight");
  if (opts.dim) el.classList.add("dim");
  el.dataset.card = code;
  el.setAttribute("aria-label", `${rankLabel(rank)} ${SUIT_NAME[suit] || suit}`);
  if (opts.button) {
    el.type = "button";
    el.setAttribute("aria-pressed", opts.selected ? "true" : "false");
  }
  if (opts.selected) el.classList.add("selected");
  el.innerHTML = `<span class="corner">${rankLabel(rank)}<br>${suitSymbol(suit)}</span>`
    + `<span class="pip">${suitSymbol(suit)}</span>`;
  return el;
}

export function backEl(small = false) {
  const el = document.createElement("span");
  el.className = small ? "card back small" : "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

// A row of face-down cards with a count ("×5"): a stack for counts and field plays.
export function stackEl(count, label) {
  const el = document.createElement("span");
  el.className = "stack";
  for (let i = 0; i < Math.min(count, 4); i++) el.appendChild(backEl(true));
  const n = document.createElement("span");
  n.className = "stack-count";
  n.textContent = label ?? `×${count}`;
  el.appendChild(n);
  return el;
}

// "pair 7", "two-pair K 8", "straight-flush K S" -> natural words in the reader's
// language: "a pair of 7s", "7のペア" (rank words and plurals from the catalogue).
export function rankWord(rank, plural = false) {
  const key = `rank.${rank}${plural ? ".pl" : ""}`;
  const word = t(key);
  return word === key ? rankLabel(rank) : word;
}

export function callText(call) {
  const [kind, a, b] = call.split(" ");
  const key = `callx.${kind}`;
  const text = t(key, { r: rankWord(a, false), rs: rankWord(a, true), r2s: rankWord(b, true),
    suit: SUIT_SYMBOL[b] || b || "" });
  return text === key ? call : text;
}

// A Liar Game action in words: "play 7H 8S as 9" -> "7♥ 8♠ as 9" style, translated.
export function liarActionText(action) {
  const tokens = action.split(" ");
  const cards = (list) => list.map((c) => rankLabel(c.slice(0, -1)) + suitSymbol(c.slice(-1))).join(" ");
  switch (tokens[0]) {
    case "play": return t("act.play", { cards: cards(tokens.slice(1, -2)), rate: rankLabel(tokens[tokens.length - 1]), n: tokens.length - 3 });
    case "give": return t("act.give", { cards: cards(tokens.slice(1)), n: tokens.length - 1 });
    case "pass": case "doubt": case "accept": case "challenge": return t(`act.${tokens[0]}`);
    default: return action;
  }
}
