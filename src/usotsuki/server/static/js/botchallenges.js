// The Account page's switch "Take challenges from bots" (players.bot_challenges): bots'
// challenges then show on the home page, to accept or decline. The switch's state comes
// from GET /api/challenges and is kept here across the page's redraws.
import { api } from "./api.js";
import { el } from "./dom.js";
import { errorText, t } from "./i18n.js";

let fromBots = null; // the server's answer, once read

async function change(event) {
  const box = event.currentTarget;
  const note = document.getElementById("bot-challenges-note");
  box.disabled = true;
  try {
    fromBots = (await api("/api/challenges/settings", { method: "PUT", body: { from_bots: box.checked } })).from_bots;
    note.textContent = t(fromBots ? "account.botChallenges.on" : "account.botChallenges.off");
  } catch (e) {
    box.checked = !box.checked;
    note.textContent = errorText(e.code, e.params, e.message);
  }
  box.disabled = false;
}

// The section, for a person's account (a bot account takes no challenges as a person).
export function botChallengesSection() {
  const box = el("input", { type: "checkbox", id: "bot-challenges", disabled: fromBots === null,
    "aria-describedby": "bot-challenges-desc", onchange: change });
  box.checked = Boolean(fromBots);
  if (fromBots === null) {
    api("/api/challenges").then((mine) => {
      fromBots = mine.from_bots;
      box.checked = fromBots;
      box.disabled = false;
    }, () => {});
  }
  return el("section", { class: "panel account-section", id: "bot-challenges-section",
    "aria-labelledby": "bot-challenges-heading" },
  el("h2", { id: "bot-challenges-heading" }, t("account.botChallenges.heading")),
  el("label", { class: "option option-bool" }, box,
    el("span", {}, el("strong", {}, t("account.botChallenges")),
      el("small", { id: "bot-challenges-desc" }, t("account.botChallenges.desc")))),
  el("p", { class: "muted", id: "bot-challenges-note", role: "status" }));
}
