// This seat's contribution to a game's deal (docs/fairness.md): 32 random bytes from the
// browser's own source, sent when the server's state says it awaits them (the same value
// again after a reconnection or a reload). The commitment shown at the table, and the
// value given, are kept in this browser, so that the replay page can check the finished
// game's record against what was seen here (fair-mark.js).
const PREFIX = "usotsuki.fair.";

function randomHex() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// What this browser saw of a game: {commitment, value (its contribution, or absent)}.
export function seenAt(tableId, game) {
  try {
    return JSON.parse(localStorage.getItem(`${PREFIX}${tableId}.${game}`) || "null");
  } catch {
    return null; // storage unavailable (private mode) or unreadable: nothing was kept
  }
}

function keep(tableId, game, seen) {
  try { localStorage.setItem(`${PREFIX}${tableId}.${game}`, JSON.stringify(seen)); } catch { /* not kept */ }
}

// The message to send for this state's `fairness`, or null when none is awaited from
// `seat`; the commitment is remembered in any case.
export function contribution(tableId, fairness, seat) {
  if (!fairness || !tableId) return null;
  const seen = seenAt(tableId, fairness.game) || {};
  if (seen.commitment !== fairness.commitment) {
    keep(tableId, fairness.game, { commitment: fairness.commitment }); // a new game here
    delete seen.value;
  }
  if (!fairness.collecting || seat === null || seat === undefined || !fairness.waiting.includes(seat)) return null;
  const value = seen.value || randomHex();
  keep(tableId, fairness.game, { commitment: fairness.commitment, value });
  return { type: "contribute", value };
}
