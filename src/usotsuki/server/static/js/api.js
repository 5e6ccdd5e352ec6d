// HTTP calls to the server, and the seat tokens kept in localStorage.
export class ApiError extends Error {
  constructor(status, code, message, params = {}) {
    super(message); this.status = status; this.code = code; this.params = params;
  }
}

// `raw`: a body sent exactly as given (a record file's bytes: JSON.parse would round a
// seed above 2^53, and the server would then refuse the record).
export async function api(path, { method = "GET", body, raw } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined && raw === undefined ? {} : { "Content-Type": "application/json" },
      body: raw !== undefined ? raw : body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "network", String(e));
  }
  if (response.status === 204) return null;
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    throw new ApiError(response.status, data?.error ?? "error", data?.message ?? response.statusText,
      data?.params ?? {});
  }
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
