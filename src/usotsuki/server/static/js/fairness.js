// The independent verifier of fair deals, written from docs/fairness.md alone
// (usotsuki-fair-1) with Web Crypto: SHA-256 for the commitment, HMAC-SHA256 for the key
// and the streams. It recomputes every deal (Bluff rounds; Liar Game hands and stocks)
// and the Liar Game's seed from a record's `fairness` object, in the page: nothing the
// server says is taken on trust. It shares no code with the Python verifier; both are
// tested on the records in tests/fairness/.
//
// verifyRecord(record) answers {verified: true, error: null}, or {verified: false,
// error: {place, round, seat, message}}: place "record" or "fairness" (it cannot be
// checked), or "commitment", "seed", "hand", "stock" (it differs), as `usotsuki verify`.

const VERSION = "usotsuki-fair-1";
const RANKS = "23456789TJQKA";
const SUITS = "SHDC";
const DECK = Array.from({ length: 52 }, (_, k) => RANKS[k >> 2] + SUITS[k & 3]);
const HEX64 = /^[0-9a-f]{64}$/;
const CARD = /^[2-9TJQKA][SHDC]$/;
const TWO_32 = 2 ** 32;

const subtle = () => globalThis.crypto.subtle;
const utf8 = (text) => new TextEncoder().encode(text);
const lines = (...parts) => utf8(parts.join("\n"));
const isInt = (v) => typeof v === "number" && Number.isInteger(v);

function toHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

async function hmacKey(raw) {
  return subtle().importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key, message) {
  return new Uint8Array(await subtle().sign("HMAC", key, message));
}

export async function commitmentOf(table, game, secret) {
  const text = lines(VERSION, "commit", `table:${table}`, `game:${game}`, `secret:${secret}`);
  return toHex(await subtle().digest("SHA-256", text));
}

// K = HMAC(S, T_key): the non-null contributions in ascending seat order.
async function gameKey(fairness) {
  const parts = [VERSION, "key", `table:${fairness.table}`, `game:${fairness.game}`];
  for (const c of fairness.contributions) if (c.value !== null) parts.push(`contribution:${c.seat}:${c.value}`);
  return hmac(await hmacKey(fromHex(fairness.secret)), lines(...parts));
}

// stream(P): HMAC(K, V \n stream:P \n block:i) for i = 0, 1, ..., read front to back.
class Stream {
  constructor(key, purpose) {
    this.key = key;
    this.purpose = purpose;
    this.block = 0;
    this.buffer = new Uint8Array(0);
  }

  async read(count) {
    while (this.buffer.length < count) {
      const next = await hmac(this.key, lines(VERSION, `stream:${this.purpose}`, `block:${this.block}`));
      this.block += 1;
      const joined = new Uint8Array(this.buffer.length + next.length);
      joined.set(this.buffer);
      joined.set(next, this.buffer.length);
      this.buffer = joined;
    }
    const taken = this.buffer.slice(0, count);
    this.buffer = this.buffer.slice(count);
    return taken;
  }

  // 0 <= r < n, exactly uniform: 4-byte big-endian words at or above limit are rejected.
  async uniform(n) {
    const limit = TWO_32 - (TWO_32 % n);
    for (;;) {
      const bytes = await this.read(4);
      const x = new DataView(bytes.buffer).getUint32(0, false);
      if (x < limit) return x % n;
    }
  }

  // Fisher-Yates (Durstenfeld) from the end, in place.
  async shuffle(items) {
    for (let i = items.length - 1; i >= 1; i -= 1) {
      const j = await this.uniform(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

class Uncheckable extends Error {
  constructor(place, message) { super(message); this.place = place; }
}

const fault = (place, message, round = null, seat = null) => ({ verified: false, error: { place, round, seat, message } });

function checkFairness(f, players) {
  const bad = (message) => { throw new Uncheckable("fairness", `malformed 'fairness': ${message}`); };
  if (f === undefined) throw new Uncheckable("fairness", "the record has no 'fairness' object");
  if (!f || typeof f !== "object" || Array.isArray(f)) bad("it must be a JSON object");
  const keys = ["commitment", "contributions", "game", "secret", "table", "version"];
  const own = Object.keys(f).sort();
  if (own.length !== keys.length || own.some((k, i) => k !== keys[i])) bad(`its keys must be ${keys.join(", ")}`);
  if (f.version !== VERSION) bad(`unknown version ${JSON.stringify(f.version)}`);
  // eslint-disable-next-line no-control-regex
  if (typeof f.table !== "string" || f.table.length < 1 || f.table.length > 64 || /[\u0000-\u001f\u007f]/.test(f.table)) bad("bad table");
  if (!isInt(f.game) || f.game < 0) bad("bad game number");
  if (typeof f.commitment !== "string" || !HEX64.test(f.commitment)) bad("the commitment must be 64 lowercase hex digits");
  if (f.secret !== null && (typeof f.secret !== "string" || !HEX64.test(f.secret))) bad("the secret must be 64 lowercase hex digits");
  if (!Array.isArray(f.contributions)) bad("'contributions' must be a list");
  let last = -1;
  for (const c of f.contributions) {
    if (!c || typeof c !== "object" || Array.isArray(c) || Object.keys(c).sort().join() !== "seat,value") bad("a contribution must be {seat, value}");
    if (!isInt(c.seat) || c.seat <= last || (players !== null && c.seat >= players)) bad("contribution seats must be seats of the game, ascending");
    if (c.value !== null && (typeof c.value !== "string" || !HEX64.test(c.value))) bad(`seat ${c.seat}'s contribution must be 64 lowercase hex digits or null`);
    last = c.seat;
  }
  if (f.secret === null) throw new Uncheckable("fairness", "the secret is not revealed yet (the game is not over): nothing to verify");
}

function cardsOf(value, where) {
  if (!Array.isArray(value) || !value.every((c) => typeof c === "string" && CARD.test(c.toUpperCase()))) {
    throw new Uncheckable("record", `${where} must be a list of cards`);
  }
  return value.map((c) => c.toUpperCase());
}

function handsOf(entry, where) {
  if (!entry || typeof entry !== "object" || !Array.isArray(entry.hands)) throw new Uncheckable("record", `${where} has no list of hands`);
  return entry.hands.map((hand, seat) => cardsOf(hand, `${where}'s hand ${seat}`));
}

const asSet = (cards) => [...cards].sort().join(" ");

function compareHands(kind, number, derived, recorded) {
  for (let seat = 0; seat < recorded.length; seat += 1) {
    if (asSet(derived[seat]) !== asSet(recorded[seat])) {
      return fault("hand", `${kind} ${number}, seat ${seat}: the record's hand [${recorded[seat].join(" ")}] is not the derived [${[...derived[seat]].sort().join(" ")}]`, number, seat);
    }
  }
  return null;
}

async function verifyBluff(key, record, rounds) {
  const ranks = record.rules && typeof record.rules === "object" && "ranks" in record.rules ? record.rules.ranks : 13;
  if (!isInt(ranks) || ranks < 2 || ranks > 13) throw new Uncheckable("record", "rules.ranks must be an integer from 2 to 13");
  for (let r = 0; r < rounds.length; r += 1) {
    const hands = handsOf(rounds[r], `round ${r}`);
    const total = hands.reduce((n, h) => n + h.length, 0);
    if (total > 4 * ranks) return fault("hand", `round ${r}: hands of ${total} cards cannot come from a deck of ${4 * ranks}`, r);
    const deck = await new Stream(key, `bluff:round:${r}`).shuffle(DECK.slice(52 - 4 * ranks));
    let from = 0;
    const derived = hands.map((h) => { const hand = deck.slice(from, from + h.length); from += h.length; return hand; });
    const differs = compareHands("round", r, derived, hands);
    if (differs) return differs;
  }
  return null;
}

async function verifyLiar(key, record, games) {
  const seedBytes = await new Stream(key, "liar:seed").read(8);
  const derivedSeed = new DataView(seedBytes.buffer).getBigUint64(0, false) >> 11n;
  const seed = "seed" in record ? record.seed : 0;
  if (!isInt(seed) || BigInt(seed) !== derivedSeed) {
    return fault("seed", `the record's flush seed ${JSON.stringify(seed)} is not the derived ${derivedSeed}`);
  }
  for (let g = 0; g < games.length; g += 1) {
    const hands = handsOf(games[g], `game ${g}`);
    const stock = cardsOf(games[g].stock, `game ${g}'s stock`);
    const dealt = hands.reduce((n, h) => n + h.length, 0);
    if (dealt > 52 || hands.length === 0) return fault("hand", `game ${g}: hands of ${dealt} cards cannot come from a deck of 52`, g);
    const deck = await new Stream(key, `liar:game:${g}`).shuffle(DECK.slice());
    const derived = hands.map((_, seat) => deck.slice(0, dealt).filter((_, k) => k % hands.length === seat));
    const differs = compareHands("game", g, derived, hands);
    if (differs) return differs;
    const derivedStock = deck.slice(dealt);
    const at = derivedStock.findIndex((card, i) => stock[i] !== card);
    if (at !== -1 || stock.length !== derivedStock.length) {
      return fault("stock", `game ${g}: the stock differs from the derived one at position ${at === -1 ? derivedStock.length : at} (top first: 0)`, g);
    }
  }
  return null;
}

// The record's deals and seed against its fairness object (docs/fairness.md, 7).
export async function verifyRecord(record) {
  try {
    if (!record || typeof record !== "object" || Array.isArray(record)) throw new Uncheckable("record", "a record is a JSON object");
    if (record.game !== "bluff" && record.game !== "liar") throw new Uncheckable("record", "'game' must be \"bluff\" or \"liar\"");
    const list = record.game === "bluff" ? record.rounds : record.games;
    if (!Array.isArray(list)) throw new Uncheckable("record", `the record has no list of ${record.game === "bluff" ? "rounds" : "games"}`);
    const players = Array.isArray(record.players) ? record.players.length : isInt(record.players) ? record.players : null;
    const f = record.fairness;
    checkFairness(f, players);
    const expected = await commitmentOf(f.table, f.game, f.secret);
    if (expected !== f.commitment) {
      return fault("commitment", `the revealed secret does not match the commitment (SHA-256 gives ${expected}, the record commits to ${f.commitment})`);
    }
    const key = await hmacKey(await gameKey(f));
    const differs = record.game === "bluff" ? await verifyBluff(key, record, list) : await verifyLiar(key, record, list);
    return differs || { verified: true, error: null };
  } catch (err) {
    if (err instanceof Uncheckable) return fault(err.place, err.message);
    throw err;
  }
}
