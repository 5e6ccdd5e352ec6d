// The home page's "Play now" panel: a form sent to /play.html (js/play.js waits there).
// The rules presets come from the server; rated is for accounts only.
import { api } from "./api.js";
import { onLangChange, t } from "./i18n.js";
import { me, onMe } from "./me.js";

const gameBox = document.getElementById("quick-game");
const presetBox = document.getElementById("quick-preset");
const ratedBox = document.getElementById("quick-rated");
const guestNote = document.getElementById("quick-rated-guest");
let presets = { bluff: { standard: {} }, liar: { standard: {} } };

function renderPresets() {
  const chosen = presetBox.value;
  presetBox.replaceChildren(...Object.keys(presets[gameBox.value] || {}).map(
    (name) => new Option(t(`preset.${name}`), name)));
  if ([...presetBox.options].some((o) => o.value === chosen)) presetBox.value = chosen;
}

function allowRated(who) {
  const account = who?.kind === "account";
  ratedBox.disabled = !account;
  if (!account) ratedBox.checked = false;
  guestNote.hidden = account;
}

if (gameBox) {
  gameBox.addEventListener("change", renderPresets);
  onLangChange(renderPresets);
  allowRated(null);
  onMe(allowRated);
  me().catch(() => {});
  api("/api/match/presets").then((known) => { presets = known; renderPresets(); }, () => {});
}
