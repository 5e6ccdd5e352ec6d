// Who sits where: display names (bots "Hana (hard)" in the reader's language), initials
// and a colour per seat for the avatars. Shared by the table and the replay.
import { el } from "./dom.js";
import { hasKey, t } from "./i18n.js";

// Dark enough for white initials (WCAG AA contrast).
const COLOURS = ["#1565c0", "#b71c1c", "#6a1b9a", "#1b5e20", "#a84300", "#00695c", "#ad1457", "#4e342e"];

const BOT = /^(.+) \(([a-z]+)\)$/;

// "Hana (hard)" -> "Hana (hard)" / "ハナ（強い）"; other names as they are.
export function displayName(name) {
  const m = BOT.exec(name || "");
  if (!m || !hasKey(`bot.${m[2]}`)) return name;
  const given = hasKey(`botname.${m[1]}`) ? t(`botname.${m[1]}`) : m[1];
  return t("bot.display", { name: given, level: t(`bot.${m[2]}`) });
}

// A seat's name for its reader: "You" / "あなた" at the reader's own seat (`you`, or null).
export function seatLabel(names, seat, you) {
  return seat === you && you !== null && you !== undefined ? t("table.you") : displayName(names[seat]);
}

// The given name alone, for the avatar's initials ("Hana (hard)" -> "Hana").
function givenName(name) {
  const m = BOT.exec(name || "");
  return m ? (hasKey(`botname.${m[1]}`) ? t(`botname.${m[1]}`) : m[1]) : name || "?";
}

export function initials(name) {
  const words = givenName(name).trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  const first = [...words[0]];
  if (words.length > 1) return (first[0] + [...words[1]][0]).toUpperCase();
  return first.slice(0, /[A-Za-z]/.test(first[0]) ? 2 : 1).join("").replace(/^./, (c) => c.toUpperCase());
}

export function colourOf(seat) { return COLOURS[seat % COLOURS.length]; }

export function avatarEl(name, seat, { bot = false, away = false } = {}) {
  return el("span", { class: `avatar${bot ? " bot" : ""}${away ? " away" : ""}`, "aria-hidden": "true",
    style: { "--c": colourOf(seat) } }, initials(name));
}
