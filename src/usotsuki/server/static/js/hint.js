// Honest hints: the chance that the current claim is true, two ways, each
// labelled: given how people play (calibrated on self-play) and from the cards alone
// (exact odds), each with one sentence saying what it assumes. The server sends them in the state message for the seat to move.
import { el } from "./dom.js";
import { t } from "./i18n.js";

function percent(p) {
  if (p > 0 && p < 0.01) return "<1%";
  if (p < 1 && p > 0.99) return ">99%";
  return `${Math.round(p * 100)}%`;
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
