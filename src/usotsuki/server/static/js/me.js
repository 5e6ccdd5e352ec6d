// Who this browser is: `GET /api/me` (the server makes a guest and its session on a first
// visit). Asked once per page and shared, so that a first visit makes one guest, not one
// per script that wants to know.
import { api, rememberName } from "./api.js";

let asked = null;
let known = null; // the last answer
const listeners = [];

// The name the server gives a new guest (routes/account.py) until it chooses one: the
// pages say "guest" in the reader's language instead, and offer no name to sit with.
const UNNAMED = "Guest";

// The name this player chose, or "" for a guest that has not chosen one yet.
export function chosenName(who) {
  return who && !(who.kind === "guest" && who.name === UNNAMED) ? who.name : "";
}

// {id, kind: "guest"|"account", name, username, csrf}
export function me() {
  if (!asked) {
    asked = api("/api/me", { retry: true });
    asked.then(tell, () => { asked = null; }); // a refusal is asked again next time
  }
  return asked;
}

// After a change of identity (a new name, sign-up, log-in, log-out): ask again and tell
// everyone who listens.
export function refreshMe() {
  asked = null;
  return me();
}

// `fn(me)` now (once known) and after every change.
export function onMe(fn) {
  listeners.push(fn);
  if (known) fn(known);
}

function tell(who) {
  known = who;
  // The table's join form offers the name from this browser's memory: keep it the same.
  if (chosenName(who)) rememberName(who.name);
  for (const fn of listeners) fn(who);
}

// Change your shown name; the answer is the new identity.
export async function rename(name) {
  await api("/api/me", { method: "PATCH", body: { name } });
  return refreshMe();
}
