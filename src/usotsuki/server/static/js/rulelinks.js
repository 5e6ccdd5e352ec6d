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
