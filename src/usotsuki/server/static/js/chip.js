// The name chip in every page's header: who you are, and a dialog to change the name the
// others see (a guest has a default name from the server), with the way to the account page.
import { el } from "./dom.js";
import { errorText, onLangChange, t } from "./i18n.js";
import { chosenName, me, onMe, rename } from "./me.js";

let who = null;
const chip = el("button", { type: "button", id: "name-chip", class: "name-chip", "aria-haspopup": "dialog", hidden: true,
  onclick: openDialog });
const dialog = el("dialog", { id: "name-dialog", class: "name-dialog", "aria-labelledby": "name-dialog-title" });

function drawChip() {
  if (!who) return;
  chip.hidden = false;
  const name = chosenName(who);
  chip.replaceChildren(
    el("span", { class: "chip-avatar", "aria-hidden": "true" }, [...(name || t("me.unnamed"))][0]),
    el("span", { class: "chip-name" }, name || t("me.unnamed")),
    ...(name && who.kind === "guest" ? [el("span", { class: "chip-kind" }, t("me.guest"))] : []),
    el("span", { class: "sr-only" }, t("me.change")));
  chip.dataset.kind = who.kind;
  document.documentElement.dataset.kind = who.kind; // no sign-up prompts for an account
}

function drawDialog(error = "") {
  const typed = dialog.querySelector("#chip-name-input")?.value;
  const input = el("input", { id: "chip-name-input", name: "name", maxlength: "32", required: true,
    autocomplete: "nickname", value: typed ?? chosenName(who) });
  const problem = el("p", { id: "chip-error", class: "error", role: "alert" }, error);
  const account = who.kind === "account";
  dialog.replaceChildren(
    el("form", { class: "name-form", onsubmit: save },
      el("h2", { id: "name-dialog-title" }, t("me.heading")),
      el("label", { class: "form-field" }, el("span", {}, t("me.label")), input),
      el("p", { class: "muted" }, t("me.you")),
      problem,
      el("div", { class: "button-row" },
        el("button", { type: "submit", class: "primary", id: "chip-save" }, t("me.save")),
        el("button", { type: "button", class: "secondary", id: "chip-close", onclick: () => dialog.close() }, t("me.cancel")))),
    el("p", {}, account ? t("me.accountNote", { username: who.username }) : t("me.guestNote")),
    el("p", {}, el("a", { href: "/account", id: "chip-account" }, account ? t("me.toYourAccount") : t("me.toAccount"))));
}

function openDialog() {
  drawDialog();
  dialog.showModal();
  dialog.querySelector("#chip-name-input").select();
}

async function save(event) {
  event.preventDefault();
  const name = dialog.querySelector("#chip-name-input").value.trim();
  if (!name) { drawDialog(t("me.needName")); return; }
  dialog.querySelector("#chip-save").disabled = true;
  try {
    who = await rename(name);
    dialog.close();
  } catch (e) {
    drawDialog(e.code === "network" ? t("err.network") : errorText(e.code, e.params, e.message));
  }
}

function mount() {
  const nav = document.querySelector(".topbar nav");
  if (!nav) return;
  nav.prepend(chip);
  document.body.append(dialog);
  onMe((next) => { who = next; drawChip(); });
  onLangChange(() => { drawChip(); if (dialog.open) drawDialog(); });
  me().catch(() => {}); // without the server the page still works, with no chip
}

mount();
