// A refusal that cites rule codes (the server's params.rules, e.g. ["B5", "B7"]) links
// each code to its rule, with a worked example, on the rules page.
import { el } from "./dom.js";
import { t } from "./i18n.js";

// " Rules: B5 B7" as links (opening the rules page beside the game), or null.
export function ruleLinks(codes, newTab = true) {
  if (!Array.isArray(codes) || !codes.length) return null;
  const target = newTab ? { target: "_blank", rel: "noopener" } : {};
  return el("span", { class: "rule-links" }, " ", t("rules.see"), " ",
    codes.flatMap((code, i) => [i ? " " : "", el("a", { href: `/rules.html#${encodeURIComponent(code)}`, ...target }, code)]));
}

// The rule that sets each table option (RULES.md): the table's rules list links to it.
const OPTION_RULES = {
  max_cards: "B2", dealer: "B4", ranks: "B13", hand_size: "L3", deal_all: "L3", final_doubt: "L10",
  turn_limit: "L11", multi: "O1", revolution: "O2", eight_cut: "O3", jack_back: "O4", six_up: "O5",
  binding: "O6", classes: "O7",
};

// A link to the rule that sets table option ``name`` ("O1" for multi), or null.
export function optionRuleLink(name) {
  const code = OPTION_RULES[name];
  return code ? el("a", { href: `/rules.html#${code}`, target: "_blank", rel: "noopener", class: "rule-code" }, code) : null;
}
