// HTTP calls to the server, and the seat tokens kept in localStorage.
export class ApiError extends Error {
  constructor(status, code, message, params = {}, retryAfter = null) {
    super(message); this.status = status; this.code = code; this.params = params;
    this.retryAfter = retryAfter; // seconds the server asked to wait (503), or null
  }
}

// Exponential backoff with full jitter (PROTOCOL.md, Errors): attempt k (from 0) waits a
// random time up to min(cap, base * 2^k) ms, so that pages refused together do not come
// back together. The server's hint (seconds) sets the pace when it gives one: the hint,
// plus that jitter held to the hint.
export function backoffDelay(attempt, hintSeconds = null, base = 500, cap = 10000) {
  const ceiling = Math.min(cap, base * 2 ** Math.min(attempt, 20));
  if (hintSeconds === null || hintSeconds === undefined) return Math.random() * ceiling;
  const hint = Math.min(Math.max(hintSeconds, 0), 60) * 1000;
  return hint + Math.random() * Math.min(ceiling, hint);
}

const RETRIES = 20; // 503s in a row before the page gives up and says so
const retrying = []; // listeners: told (true) while a request is being retried, then (false)

// The page tells the person: "the server is busy, retrying...".
export function onRetrying(fn) { retrying.push(fn); }

// `raw`: a body sent exactly as given (a record file's bytes: JSON.parse would round a
// seed above 2^53, and the server would then refuse the record). `retry`: a 503
// (`unavailable`, `busy`: nothing was done) is asked again after a backoff.
export async function api(path, { retry = false, ...options } = {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      const out = await request(path, options);
      if (attempt) for (const fn of retrying) fn(false);
      return out;
    } catch (e) {
      if (!retry || e.status !== 503 || attempt + 1 >= RETRIES) {
        if (attempt) for (const fn of retrying) fn(false);
        throw e;
      }
      for (const fn of retrying) fn(true);
      await new Promise((done) => setTimeout(done, backoffDelay(attempt, e.retryAfter)));
    }
  }
}

// The session's CSRF token (GET /api/me gives it; it makes a guest on a first visit):
// every POST, PUT, PATCH and DELETE sends it as X-CSRF-Token. A 403 "csrf" (the session
// ended: signed out elsewhere, expired) asks /api/me again and sends the request once more.
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
let csrf = null; // a promise of the token

export function me() {
  const answer = request("/api/me");
  csrf = answer.then((m) => m.csrf, () => null);
  return answer;
}

async function request(path, { method = "GET", body, raw } = {}, again = true) {
  const headers = body === undefined && raw === undefined ? {} : { "Content-Type": "application/json" };
  if (STATE_CHANGING.has(method)) {
    if (csrf === null) me();
    const token = await csrf;
    if (token) headers["X-CSRF-Token"] = token;
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: raw !== undefined ? raw : body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  if (response.status === 403 && again && STATE_CHANGING.has(method)) {
    const problem = await response.clone().json().catch(() => null);
    if (problem?.error === "csrf") {
      csrf = null;
      return request(path, { method, body, raw }, false);
    }
  }
  const identity = path === "/api/me" || path.startsWith("/api/account");
  if (response.status === 204) {
    if (identity) csrf = null; // signed out: the next change asks /api/me again
    return null;
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const header = Number.parseFloat(response.headers.get("Retry-After") ?? "");
    const hint = typeof data?.retry_after === "number" ? data.retry_after : Number.isFinite(header) ? header : null;
    throw new ApiError(response.status, data?.error ?? "error", data?.message ?? response.statusText,
      data?.params ?? {}, hint);
  }
  if (identity && typeof data?.csrf === "string") csrf = Promise.resolve(data.csrf); // a new session
  return data;
}

const SEATS = "usotsuki.seats";

function allSeats() {
  try { return JSON.parse(localStorage.getItem(SEATS) || "{}"); } catch (e) { return {}; }
}

// What this browser holds at a table: {seat, token, host_token, invite}.
export function seatAt(tableId) { return allSeats()[tableId] || null; }

export function rememberSeat(tableId, info) {
  const seats = allSeats();
  seats[tableId] = { ...(seats[tableId] || {}), ...info };
  localStorage.setItem(SEATS, JSON.stringify(seats));
}

export function forgetSeat(tableId) {
  const seats = allSeats();
  delete seats[tableId];
  localStorage.setItem(SEATS, JSON.stringify(seats));
}

export function lastName() { return localStorage.getItem("usotsuki.name") || ""; }
export function rememberName(name) { localStorage.setItem("usotsuki.name", name); }
