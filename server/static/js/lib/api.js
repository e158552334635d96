// The HTTP API and the stored credentials: the player's token (localStorage) and the
// organiser's admin token (sessionStorage only).

const PLAYER_KEY = "spidertour.player";
const ENTRIES_KEY = "spidertour.entries";
const ADMIN_KEY = "spidertour.admin";

export class ApiError extends Error {
  constructor(status, detail, extra) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.extra = extra;
  }
}

function read(storage, key) {
  try {
    return JSON.parse(storage.getItem(key));
  } catch {
    return null;
  }
}

/** {id, name, token} of the registered player on this device, or null. */
export const player = () => read(localStorage, PLAYER_KEY);
export const setPlayer = (p) => localStorage.setItem(PLAYER_KEY, JSON.stringify(p));
export function forgetPlayer() {
  localStorage.removeItem(PLAYER_KEY);
  localStorage.removeItem(ENTRIES_KEY);
}

/** The player's entries as last fetched: [{id, tournament_id, status}]. */
export const knownEntries = () => read(localStorage, ENTRIES_KEY) || [];

export const adminToken = () => sessionStorage.getItem(ADMIN_KEY) || "";
export const setAdminToken = (t) => (t ? sessionStorage.setItem(ADMIN_KEY, t) : sessionStorage.removeItem(ADMIN_KEY));

async function call(method, path, { body, token, raw = false } = {}) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) {
    let detail = `${response.status} ${response.statusText}`;
    let extra = null;
    try {
      const err = await response.json();
      detail = err.detail || detail;
      extra = err.extra || null;
    } catch {
      /* not JSON */
    }
    if (extra && extra.length) detail += `: ${extra.map((e) => `${e.key}: ${e.message}`).join("; ")}`;
    throw new ApiError(response.status, detail, extra);
  }
  return raw ? response.text() : response.json();
}

const token = () => (player() || {}).token;

export const api = {
  tournaments: (status) => call("GET", `/api/tournaments${status ? `?status=${status}` : ""}`),
  tournament: (id) => call("GET", `/api/tournaments/${id}`),
  register: (name) => call("POST", "/api/players", { body: { name } }),
  join: (tid) => call("POST", `/api/tournaments/${tid}/entries`, { token: token() }),
  async myEntries(tok = token()) {
    const entries = await call("GET", "/api/me/entries", { token: tok });
    localStorage.setItem(ENTRIES_KEY, JSON.stringify(
      entries.map((e) => ({ id: e.id, tournament_id: e.tournament_id, status: e.status }))));
    return entries;
  },
  async standings(tid) {
    const all = [];
    for (let offset = 0; ; offset += 500) {
      const page = await call("GET", `/api/tournaments/${tid}/standings?offset=${offset}&limit=500`);
      all.push(...page);
      if (page.length < 500) return all;
    }
  },
  leaderboard: (tid, limit = 50) => call("GET", `/api/tournaments/${tid}/leaderboard?limit=${limit}`),
  around: (tid, eid, k = 3) => call("GET", `/api/tournaments/${tid}/leaderboard/around/${eid}?k=${k}`),
  async replays(tid) {
    const text = await call("GET", `/api/tournaments/${tid}/replays`, { raw: true });
    return text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  },
  disqualified: (tid) => call("GET", `/api/tournaments/${tid}/disqualified`),
  par: (tid) => call("GET", `/api/tournaments/${tid}/par`),
  createTournament: (body, admin) => call("POST", "/api/tournaments", { body, token: admin }),
  /** An organiser's request with the admin token of this tab (organise_manage.js). */
  admin: (method, path, body) => call(method, path, { body, token: adminToken() }),
};

/** ws:// or wss:// URL of a path on this server. */
export function wsUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}
