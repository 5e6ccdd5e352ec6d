// Honest hints: the chance that the current claim is true, two ways, each
// labelled: given how people play (calibrated on self-play) and from the cards alone
// (exact odds), each with one sentence saying what it assumes. The server sends them in the state message for the seat to move.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { callText, liarActionText } from "./cards.js";

function percent(p) {
  if (p > 0 && p < 0.01) return "<1%";
  if (p < 1 && p > 0.99) return ">99%";
  return `${Math.round(p * 100)}%`;
}

// The adviser's suggested move (the `suggestion` message, asked for at the seat's turn):
// the move and its reason in the reader's words (the move's notation in its title).
export function suggestionEl(game, s) {
  const args = { ...s.args };
  if (typeof args.p === "number") args.p = percent(args.p);
  if (typeof args.call === "string") args.call = callText(args.call);
  let move = liarActionText(s.move);
  if (game === "bluff") move = s.move === "challenge" ? t("hint.challengeMove") : callText(s.move);
  return el("p", { class: "suggestion", id: "suggestion", "aria-live": "polite" },
    t("hint.suggests"), " ", el("strong", { id: "suggested-move", title: s.move }, move), el("br"),
    el("small", { class: "muted", id: "suggestion-reason" }, t(`advice.${game}.${s.reason}`, args)));
}

export function hintEl(hint) {
  if (!hint) return null;
  const rows = [["calibrated", hint.calibrated], ["odds", hint.odds]]
    .filter(([, p]) => p !== null && p !== undefined)
    .map(([key, p]) => el("li", { id: `hint-${key}` }, el("strong", {}, percent(p)), " ", t(`hint.${key}`),
      el("br"), el("small", { class: "muted" }, t(`hint.${key}Why`))));
  if (!rows.length) return null;
  return el("section", { class: "truth-hint", id: "truth-hint", "aria-live": "polite" },
    el("p", {}, t("hint.heading")), el("ul", {}, rows));
}
