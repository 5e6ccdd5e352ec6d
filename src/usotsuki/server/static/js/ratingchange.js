// At the end of a rated game, your rating before and after it, under the standings: the
// game is kept (and rated) as it ends, and listed in GET /api/me/games.
import { api } from "./api.js";

const TRIES = 5; // the game's end may be told a moment before its keeping is read back
const known = new Map(); // "table/number" -> {before, after}, null (none), or undefined (asking)

// `{before, after}` once known, else null; `redraw()` is called when it becomes known.
export function ratingChange(tableId, number, redraw) {
  const key = `${tableId}/${number}`;
  if (!known.has(key)) {
    known.set(key, undefined);
    ask(tableId, number, key, redraw, 0);
  }
  return known.get(key) ?? null;
}

async function ask(tableId, number, key, redraw, attempt) {
  let found = null;
  try {
    const answer = await api("/api/me/games?limit=5");
    found = answer.games.find((g) => g.table_id === tableId && g.number === number);
  } catch (e) {
    known.set(key, null);
    return;
  }
  if (found?.rating) {
    known.set(key, found.rating);
    redraw();
  } else if (attempt + 1 < TRIES) {
    setTimeout(() => ask(tableId, number, key, redraw, attempt + 1), 1000);
  } else {
    known.set(key, null);
  }
}
