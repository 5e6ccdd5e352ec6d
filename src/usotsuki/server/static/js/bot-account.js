// The account page's bot section (docs/bots.md): mark the account as a bot (once; it then
// never plays as a person), then make, list and revoke its API tokens. A new token's
// secret is shown once, here, until the page is left or redrawn by the next change.
import { api } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { refreshMe } from "./me.js";
import { when } from "./played.js";

const SCOPES = ["play", "challenge"];
let owner = null; // the account whose tokens these are
let tokens = null; // its live tokens once read (null: not yet)
let shown = null; // the token just made: {id, label, token}, its secret shown once

// ``attempt(button, work)`` runs a request and shows its refusal (account.js); ``redraw``
// draws the page again.
export function botSections(who, attempt, redraw) {
  if (owner !== who.id) { owner = who.id; tokens = null; shown = null; }
  if (!who.bot) return [markSection(attempt)];
  if (tokens === null) {
    api("/api/account/tokens").then((list) => { tokens = list; redraw(); }).catch(() => {});
  }
  return [tokensSection(attempt, redraw)];
}

function markSection(attempt) {
  const mark = async (event) => {
    event.preventDefault();
    const form = event.target;
    if (!form.elements.sure.checked) return;
    if (await attempt(form.querySelector("button[type=submit]"),
      () => api("/api/account/bot", { method: "POST" }))) {
      tokens = null;
      await refreshMe();
    }
  };
  return el("section", { class: "panel account-section", id: "bot-section", "aria-labelledby": "bot-heading" },
    el("h2", { id: "bot-heading" }, t("bots.markHeading")),
    el("p", { class: "muted" }, t("bots.markNote")),
    el("form", { id: "bot-form", novalidate: true, onsubmit: mark },
      el("label", { class: "check", for: "bot-sure" },
        el("input", { type: "checkbox", id: "bot-sure", name: "sure", required: true,
          onchange: (e) => { document.getElementById("mark-bot").disabled = !e.target.checked; } }),
        " ", t("bots.markSure")),
      el("button", { type: "submit", class: "secondary", id: "mark-bot", disabled: true }, t("bots.mark"))));
}

function scopesText(scopes) { return scopes.map((s) => t(`bots.scope.${s}`)).join(", "); }

function tokenRow(token, attempt, redraw) {
  const revoke = async (event) => {
    if (await attempt(event.currentTarget,
      () => api(`/api/account/tokens/${encodeURIComponent(token.id)}`, { method: "DELETE" }))) {
      tokens = tokens.filter((x) => x.id !== token.id);
      if (shown && shown.id === token.id) shown = null;
      redraw();
    }
  };
  return el("tr", { "data-token": token.id },
    el("td", {}, token.label),
    el("td", {}, scopesText(token.scopes)),
    el("td", {}, t("bots.perMinute", { n: token.per_minute })),
    el("td", {}, when(token.created)),
    el("td", {}, token.used === null ? t("bots.never") : when(token.used)),
    el("td", {}, el("button", { type: "button", class: "secondary revoke", onclick: revoke,
      "aria-label": t("bots.revokeLabel", { label: token.label }) }, t("bots.revoke"))));
}

function tokensTable(attempt, redraw) {
  if (tokens === null) return el("p", { class: "muted" }, t("bots.loading"));
  if (!tokens.length) return el("p", { class: "muted", id: "no-tokens" }, t("bots.none"));
  return el("table", { class: "tokens", id: "tokens" },
    el("thead", {}, el("tr", {}, ...["bots.label", "bots.scopes", "bots.rate", "bots.created", "bots.used", null]
      .map((k) => el("th", { scope: "col" }, k ? t(k) : "")))),
    el("tbody", {}, ...tokens.map((x) => tokenRow(x, attempt, redraw))));
}

function newTokenForm(attempt, redraw) {
  const make = async (event) => {
    event.preventDefault();
    const form = event.target;
    const label = form.elements.label.value.trim();
    const scopes = SCOPES.filter((s) => form.elements[`scope-${s}`].checked);
    if (!label || !scopes.length) { document.getElementById("account-error").textContent = t("bots.needFields"); return; }
    let made = null;
    if (await attempt(form.querySelector("button[type=submit]"), async () => {
      made = await api("/api/account/tokens", { method: "POST", body: { label, scopes } });
    })) {
      const { token, ...info } = made;
      shown = { id: made.id, label: made.label, token };
      tokens = [...(tokens || []), info];
      redraw();
    }
  };
  return el("form", { id: "token-form", class: "token-form", novalidate: true, onsubmit: make },
    el("label", { class: "form-field", for: "token-label" }, el("span", {}, t("bots.label")),
      el("input", { id: "token-label", name: "label", maxlength: "64", required: true, autocomplete: "off" })),
    el("fieldset", {}, el("legend", {}, t("bots.scopes")),
      ...SCOPES.map((s) => el("label", { class: "check", for: `scope-${s}` },
        el("input", { type: "checkbox", id: `scope-${s}`, name: `scope-${s}`, checked: s === "play" }),
        " ", t(`bots.scope.${s}`), " ", el("small", { class: "muted" }, t(`bots.scope.${s}.desc`))))),
    el("button", { type: "submit", class: "primary", id: "make-token" }, t("bots.make")));
}

function secretBox() {
  if (!shown) return null;
  return el("div", { class: "token-secret", id: "token-secret", role: "status" },
    el("p", {}, t("bots.secretNote", { label: shown.label })),
    el("input", { id: "token-value", readonly: true, value: shown.token, "aria-label": t("bots.secretLabel"),
      onfocus: (e) => e.target.select() }));
}

function tokensSection(attempt, redraw) {
  return el("section", { class: "panel account-section", id: "tokens-section", "aria-labelledby": "tokens-heading" },
    el("h2", { id: "tokens-heading" }, t("bots.tokensHeading")),
    el("p", { class: "muted" }, t("bots.tokensNote"), " ",
      el("a", { href: "/docs" }, t("bots.apiLink"))),
    secretBox(),
    tokensTable(attempt, redraw),
    newTokenForm(attempt, redraw));
}
