// The rated switch of the home page: accounts only (a guest reads why, with the way to
// sign up); ticked, it shows what a rated table means and holds the turn clock on (the
// server refuses a rated table without one, and turns the honest hint off there).
import { me, onMe } from "./me.js";

const box = document.getElementById("rated");
const terms = document.getElementById("rated-terms");
const guestNote = document.getElementById("rated-guest");
const clock = document.getElementById("turn-seconds");
const changed = [];

// Whether the table will be rated.
export function rated() { return Boolean(box && box.checked && !box.disabled); }

// `fn()` after the switch or the identity changes (the clock's field shows or hides).
export function onRatedChange(fn) { changed.push(fn); }

function sync() {
  const on = rated();
  terms.hidden = !on;
  const off = [...clock.options].find((o) => o.value === "off");
  off.disabled = on;
  if (on && clock.value === "off") clock.value = "60";
  for (const fn of changed) fn();
}

function allow(who) {
  const account = who?.kind === "account";
  box.disabled = !account;
  if (!account) box.checked = false;
  guestNote.hidden = account;
  box.setAttribute("aria-describedby", account ? "rated-desc" : "rated-desc rated-guest");
  sync();
}

if (box) {
  box.addEventListener("change", sync);
  onMe(allow);
  allow(null); // until the server answers, nobody may tick it
  me().catch(() => {});
}
