// The account page: a guest signs up (keeping this device's games) or logs in; an account
// logs out (here or everywhere), downloads its data or deletes itself. Every refusal is
// said in the reader's language; a failed log-in never tells whether the account exists.
import { api } from "./api.js";
import { botSections } from "./bot-account.js";
import { botChallengesSection } from "./botchallenges.js";
import { el, rerender } from "./dom.js";
import { errorText, initPage, onLangChange, t } from "./i18n.js";
import { chosenName, me, onMe, refreshMe } from "./me.js";

// The server's rules (names.py, schemas.py): it checks them, the page only says them.
const PASSWORD_MIN = 8;
const USERNAME = { min: 2, max: 24 };

const body = document.getElementById("account-body");
const status = document.getElementById("account-status");
const problem = document.getElementById("account-error");
let who = null;

function say(text) { status.textContent = text; problem.textContent = ""; }

function refusal(e) {
  if (e.code === "network") return t("err.network");
  if (e.code === "throttled" && e.retryAfter) return t("err.throttled.wait", { wait: Math.ceil(e.retryAfter) });
  if (e.code === "wrong_password") return t("account.wrongPassword");
  return errorText(e.code, e.params, e.message);
}

// Run a request for the form's button; a refusal is shown, the button given back.
async function attempt(button, work) {
  button.disabled = true;
  problem.textContent = "";
  try {
    await work();
  } catch (e) {
    status.textContent = "";
    problem.textContent = refusal(e);
    button.disabled = false;
    return false;
  }
  return true;
}

function field(id, label, input, hint = null) {
  return el("label", { class: "form-field", for: id }, el("span", {}, label), input,
    hint ? el("small", { class: "muted", id: `${id}-hint` }, hint) : null);
}

function credentialsForm(kind) {
  const user = `${kind}-username`;
  const pass = `${kind}-password`;
  const signup = kind === "signup";
  const keep = () => ({ // a redraw (language switch) keeps what is typed
    [user]: document.getElementById(user)?.value ?? "", [pass]: document.getElementById(pass)?.value ?? "" });
  const typed = keep();
  return el("form", { class: "panel account-form", id: `${kind}-form`, novalidate: true, "aria-labelledby": `${kind}-heading`,
    onsubmit: (event) => credentials(event, kind) },
    el("h2", { id: `${kind}-heading` }, t(signup ? "account.signupHeading" : "account.loginHeading")),
    el("p", { class: "muted" }, t(signup ? "account.signupNote" : "account.loginNote")),
    field(user, t("account.username"), el("input", { id: user, name: "username", maxlength: "64", required: true,
      autocomplete: "username", autocapitalize: "none", spellcheck: "false", value: typed[user],
      "aria-describedby": signup ? `${user}-hint` : null }),
    signup ? t("account.usernameRule", USERNAME) : null),
    field(pass, t("account.password"), el("input", { id: pass, name: "password", type: "password", required: true,
      autocomplete: signup ? "new-password" : "current-password", value: typed[pass],
      "aria-describedby": signup ? `${pass}-hint` : null }),
    signup ? t("account.passwordRule", { n: PASSWORD_MIN }) : null),
    el("button", { type: "submit", class: "primary", id: kind }, t(signup ? "account.signup" : "account.login")));
}

async function credentials(event, kind) {
  event.preventDefault();
  const form = event.target;
  const username = form.elements.username.value.trim();
  const password = form.elements.password.value;
  if (!username || !password) { problem.textContent = t("account.needFields"); return; }
  const ok = await attempt(form.querySelector("button[type=submit]"), () =>
    api(`/api/account/${kind}`, { method: "POST", body: { username, password } }));
  if (!ok) return;
  form.reset();
  const next = await refreshMe();
  say(t(kind === "signup" ? "account.welcome" : "account.loggedIn", { username: next.username }));
}

function guestView() {
  return [
    el("p", { class: "intro" }, chosenName(who) ? t("account.guestIntro", { name: who.name }) : t("account.unnamedIntro")),
    el("div", { class: "account-forms" }, credentialsForm("signup"), credentialsForm("login")),
  ];
}

function section(id, heading, ...children) {
  return el("section", { class: "panel account-section", id: `${id}-section`, "aria-labelledby": `${id}-heading` },
    el("h2", { id: `${id}-heading` }, heading), ...children);
}

function accountView() {
  const typed = document.getElementById("delete-password")?.value ?? "";
  return [
    el("p", { class: "intro" }, who.name === who.username ? t("me.accountNote", { username: who.username })
      : t("account.signedIn", { username: who.username, name: who.name }), " ",
      el("a", { href: `/players/${encodeURIComponent(who.id)}`, id: "profile-link" }, t("account.profile"))),
    who.bot ? el("p", { class: "muted", id: "bot-note" }, t("bots.isBot")) : null,
    ...botSections(who, attempt, draw),
    section("sessions", t("account.sessionsHeading"),
      el("div", { class: "button-row" },
        el("button", { type: "button", class: "secondary", id: "logout",
          onclick: (e) => leave(e.currentTarget, "logout", "account.loggedOut") }, t("account.logout")),
        el("button", { type: "button", class: "secondary", id: "logout-all", "aria-describedby": "logout-all-note",
          onclick: (e) => leave(e.currentTarget, "logout-all", "account.loggedOutAll") }, t("account.logoutAll"))),
      el("p", { class: "muted", id: "logout-all-note" }, t("account.logoutAllNote"))),
    who.bot ? null : botChallengesSection(),
    section("export", t("account.exportHeading"),
      el("p", { class: "muted" }, t("account.exportNote")),
      // A plain link: the browser sends the session cookie and saves the answer as a file.
      el("a", { class: "button secondary", id: "export-link", href: "/api/account/export",
        download: `usotsuki-${who.username}.json` }, t("account.export"))),
    section("delete", t("account.deleteHeading"),
      el("p", {}, t("account.deleteNote")),
      el("form", { id: "delete-form", novalidate: true, onsubmit: remove },
        field("delete-password", t("account.deletePassword"), el("input", { id: "delete-password", name: "password",
          type: "password", required: true, autocomplete: "current-password", value: typed })),
        el("button", { type: "submit", class: "danger", id: "delete" }, t("account.delete")))),
  ];
}

async function leave(button, route, done) {
  if (await attempt(button, () => api(`/api/account/${route}`, { method: "POST" }))) {
    await refreshMe();
    say(t(done));
  }
}

async function remove(event) {
  event.preventDefault();
  const password = event.target.elements.password.value;
  if (!password) { problem.textContent = t("account.needPassword"); return; }
  const button = event.target.querySelector("button[type=submit]");
  // The account is known here: a refused password is only the password.
  const confirm = () => api("/api/account", { method: "DELETE", body: { password } }).catch((e) => {
    if (e.code === "bad_credentials") e.code = "wrong_password";
    throw e;
  });
  if (await attempt(button, confirm)) {
    await refreshMe();
    say(t("account.deleted"));
  }
}

function draw() {
  if (!who) return;
  document.body.dataset.kind = who.kind;
  rerender(body, who.kind === "account" ? accountView() : guestView());
}

async function main() {
  initPage();
  onMe((next) => { who = next; draw(); });
  onLangChange(draw);
  try {
    await me();
  } catch (e) {
    problem.textContent = refusal(e);
  }
  document.body.dataset.ready = "1";
}

main();
