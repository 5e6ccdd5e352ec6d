// Two message catalogues; the language comes from localStorage, else the browser.
import accountEn from "./messages/account.en.js";
import accountJa from "./messages/account.ja.js";
import arenaEn from "./messages/arena.en.js";
import arenaJa from "./messages/arena.ja.js";
import botsEn from "./messages/bots.en.js";
import botsJa from "./messages/bots.ja.js";
import challengesEn from "./messages/challenges.en.js";
import challengesJa from "./messages/challenges.ja.js";
import chatEn from "./messages/chat.en.js";
import chatJa from "./messages/chat.ja.js";
import controlEn from "./messages/control.en.js";
import controlJa from "./messages/control.ja.js";
import en from "./messages/en.js";
import learnEn from "./messages/learn.en.js";
import learnJa from "./messages/learn.ja.js";
import ja from "./messages/ja.js";
import reviewEn from "./messages/review.en.js";
import reviewJa from "./messages/review.ja.js";
import playersEn from "./messages/players.en.js";
import playersJa from "./messages/players.ja.js";
import rulesEn from "./messages/rules.en.js";
import rulesJa from "./messages/rules.ja.js";
import matchEn from "./messages/match.en.js";
import matchJa from "./messages/match.ja.js";
import lobbyEn from "./messages/lobby.en.js";
import lobbyJa from "./messages/lobby.ja.js";
import puzzlesEn from "./messages/puzzles.en.js";
import puzzlesJa from "./messages/puzzles.ja.js";

const CATALOGUES = {
  en: { ...en, ...reviewEn, ...playersEn, ...accountEn, ...rulesEn, ...learnEn, ...chatEn, ...controlEn, ...lobbyEn, ...matchEn, ...puzzlesEn, ...botsEn, ...challengesEn, ...arenaEn },
  ja: { ...ja, ...reviewJa, ...playersJa, ...accountJa, ...rulesJa, ...learnJa, ...chatJa, ...controlJa, ...lobbyJa, ...matchJa, ...puzzlesJa, ...botsJa, ...challengesJa, ...arenaJa },
};
const KEY = "usotsuki.lang";
const listeners = [];

function initial() {
  const saved = localStorage.getItem(KEY);
  if (saved && CATALOGUES[saved]) return saved;
  const wanted = navigator.languages || [navigator.language || "en"];
  return wanted.some((l) => String(l).toLowerCase().startsWith("ja")) ? "ja" : "en";
}

let lang = initial();

export function currentLang() { return lang; }

// Plurals: with params.n === 1 a key "<key>.one" is used when the catalogue has one.
export function t(key, params = {}) {
  const cat = CATALOGUES[lang];
  // (English's singular only when this catalogue lacks the key itself: never a mix)
  const one = params.n === 1 && (cat[`${key}.one`] ?? (key in cat ? null : CATALOGUES.en[`${key}.one`]));
  const text = one || (cat[key] ?? CATALOGUES.en[key] ?? key);
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

// Sentences one after another: a space between them in English, none in Japanese.
export function sentenceGap() { return lang === "ja" ? "" : " "; }

export function sentences(...parts) { return parts.flat().filter(Boolean).join(sentenceGap()); }

// "1st", "2nd" ... / "1位": a place in the standings.
export function ordinal(n) {
  if (n === null || n === undefined) return "–";
  const tens = n % 100;
  const sfx = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return t("end.ordinal", { n, sfx });
}

export function hasKey(key) { return key in CATALOGUES[lang] || key in CATALOGUES.en; }

// A server refusal in the reader's language: {code, params} from the server (PROTOCOL.md
// Errors); an unknown code shows the server's English text only in English.
export function errorText(code, params = {}, message = "") {
  const key = `err.${code}`;
  if (code === "bad_rules" && params.option && params.needs) { // an option without the one it needs
    return t("err.bad_rules.needs", { option: t(`opt.${params.option}`), needs: t(`opt.${params.needs}`) });
  }
  if (hasKey(key)) {
    const p = { ...params };
    if (Array.isArray(p.seats)) p.seats = p.seats.map((s) => s + 1).join(", ");
    return t(key, p);
  }
  return lang === "en" && message ? message : t("err.unknown");
}

export function setLang(next) {
  if (!CATALOGUES[next]) return;
  lang = next;
  localStorage.setItem(KEY, next);
  applyStatic();
  for (const fn of listeners) fn(lang);
}

export function toggleLang() { setLang(lang === "ja" ? "en" : "ja"); }

export function onLangChange(fn) { listeners.push(fn); }

// Elements with data-i18n get their text, data-i18n-html their markup (our own catalogue).
export function applyStatic(root = document) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-html]")) el.innerHTML = t(el.dataset.i18nHtml);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
}

// The shared header: language switch and the help link work on every page.
export function initPage() {
  applyStatic();
  const button = document.getElementById("lang-switch");
  if (button) button.addEventListener("click", toggleLang);
}
