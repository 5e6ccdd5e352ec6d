// This seat's contribution to a game's deal (docs/fairness.md): 32 random bytes from the
// browser's own source, sent when the server's state says it awaits them, the same value
// again after a reconnection. Kept for the tab's life, by table and game, so that the
// person can find it in the game's record.
const given = new Map();

function randomHex() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The message to send for this state's `fairness`, or null when none is awaited from `seat`.
export function contribution(tableId, fairness, seat) {
  if (!fairness || !fairness.collecting || seat === null || seat === undefined) return null;
  if (!fairness.waiting.includes(seat)) return null;
  const key = `${tableId}:${fairness.game}`;
  if (!given.has(key)) given.set(key, randomHex());
  return { type: "contribute", value: given.get(key) };
}
