// The HTTP API and the stored credentials: the player's token (localStorage: a guest's, or an
// account's session on this device) and the organiser's token, the admin token or an organiser's
// own (sessionStorage only).

const PLAYER_KEY = "spidertour.player";
const ENTRIES_KEY = "spidertour.entries";
const ADMIN_KEY = "spidertour.admin";
const CLUBS_KEY = "spidertour.clubs";

export class ApiError extends Error {
  constructor(status, detail, extra, retryAfter = null) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.extra = extra;
    this.retryAfter = retryAfter; // seconds, from Retry-After (429)
  }
}

function read(storage, key) {
  try {
    return JSON.parse(storage.getItem(key));
  } catch {
    return null;
  }
}

/** {id, name, handle, token} of the player on this device (handle null for a guest), or null. */
export const player = () => read(localStorage, PLAYER_KEY);
export const setPlayer = (p) => localStorage.setItem(PLAYER_KEY, JSON.stringify(p));
export function forgetPlayer() {
  localStorage.removeItem(PLAYER_KEY);
  localStorage.removeItem(ENTRIES_KEY);
}

/** The player's entries as last fetched: [{id, tournament_id, status}]. */
export const knownEntries = () => read(localStorage, ENTRIES_KEY) || [];

/** The organiser's clubs as last listed by the server (GET /api/clubs) or made here: [{id, name}]. */
export const knownClubs = () => read(localStorage, CLUBS_KEY) || [];
export function rememberClub(club) {
  const others = knownClubs().filter((c) => c.id !== club.id);
  localStorage.setItem(CLUBS_KEY, JSON.stringify([{ id: club.id, name: club.name }, ...others]));
}
export const rememberClubs = (clubs) =>
  localStorage.setItem(CLUBS_KEY, JSON.stringify(clubs.map((c) => ({ id: c.id, name: c.name }))));

export const adminToken = () => sessionStorage.getItem(ADMIN_KEY) || "";
export const setAdminToken = (t) => (t ? sessionStorage.setItem(ADMIN_KEY, t) : sessionStorage.removeItem(ADMIN_KEY));
/** The organiser's pages' credential: a token pasted in this tab (the owner's, or an organiser's for
 * scripts), else this device's session, whose account may be an organiser (its rights come with it). */
export const organiserToken = () => adminToken() || (player() || {}).token || "";

/** The fields a form sends, as a person calls them (a key's [index] and .path left out). */
const FIELD_LABELS = {
  name: "the display name", handle: "the handle", password: "the password", code: "the sign-in code",
  entry_code: "the entry code", invite: "the invite", team: "the team", points: "the points",
  time_limit: "the time limit", opens_at: "the opening time", closes_at: "the closing time", seed: "the seed",
  settings: "the settings", suits: "the number of suits", variant: "the game", rating_min: "the lowest rating",
  rating_max: "the highest rating", every_minutes: "how often", data: "the form",
};

/** What is wrong with one field, in plain words: "The display name is empty: type one." */
function plainProblem({ key = "", message = "" }) {
  const base = String(key).replace(/\[(\d+)\]/g, "").split(".").pop();
  const index = String(key).match(/\[(\d+)\]/);
  const label = `${FIELD_LABELS[base] || `the ${base.replace(/_/g, " ")}`}${index ? ` (number ${Number(index[1]) + 1})` : ""}`;
  const m = String(message);
  let what = "is not valid: change it and try again";
  let n;
  if ((n = m.match(/length >= (\d+)/))) what = Number(n[1]) <= 1 ? "is empty: fill it in" : `needs at least ${n[1]} characters`;
  else if ((n = m.match(/length <= (\d+)/))) what = `is too long: at most ${n[1]} characters`;
  else if (/got `null`/.test(m) || /missing required/i.test(m)) what = "is missing: fill it in";
  else if (/Expected `(int|float|number)/.test(m)) what = "must be a number";
  else if ((n = m.match(/>= (-?[\d.]+)/))) what = `must be at least ${n[1]}`;
  else if ((n = m.match(/<= (-?[\d.]+)/))) what = `must be at most ${n[1]}`;
  else if (/pattern/.test(m)) what = "has characters that are not allowed";
  else if (/datetime/.test(m)) what = "must be a date and time";
  return `${label[0].toUpperCase()}${label.slice(1)} ${what}.`;
}

/** A server's validation errors (its `extra`) as plain sentences, one a field. */
export const plainProblems = (extra) => extra.map(plainProblem).join(" ");

async function call(method, path, { body, token, raw = false, type = "application/json", accept } = {}) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = type;
  if (token) headers.authorization = `Bearer ${token}`;
  if (accept) headers.accept = accept;
  const sent = body === undefined || typeof body === "string" ? body : JSON.stringify(body);
  const response = await fetch(path, { method, headers, body: sent });
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
    if (Array.isArray(extra) && extra.length) detail = plainProblems(extra);
    else if (/^(Validation failed|JSON is malformed)/.test(detail)) detail = "The server could not read this form: check every field and try again.";
    const wait = Number(response.headers.get("retry-after"));
    if (response.status === 401 && token && token === (player() || {}).token) signedOut();
    throw new ApiError(response.status, detail, extra, Number.isFinite(wait) && wait > 0 ? wait : null);
  }
  if (response.status === 204) return null;
  return raw ? response.text() : response.json();
}

/** The server no longer knows this device's token (signed out here, or everywhere from another
 * device): forget it, and tell the page (the header then offers to sign in). */
function signedOut() {
  forgetPlayer();
  window.dispatchEvent(new CustomEvent("spidertour:signed-out"));
}

const token = () => (player() || {}).token;

export const api = {
  /** The list; with the player's token, its clubs' unlisted tournaments too. */
  tournaments: (status) => call("GET", `/api/tournaments${status ? `?status=${status}` : ""}`, { token: token() }),
  tournament: (id) => call("GET", `/api/tournaments/${id}`),
  register: (name) => call("POST", "/api/players", { body: { name } }),
  /** Joining; `entryCode` for a tournament that takes one ({"entry_code"}), `team` (a club id) in a team battle. */
  join: (tid, entryCode, team) => {
    const body = { ...(entryCode ? { entry_code: entryCode } : {}), ...(team ? { team: Number(team) } : {}) };
    return call("POST", `/api/tournaments/${tid}/entries`, { token: token(), body: Object.keys(body).length ? body : undefined });
  },
  teams: (tid) => call("GET", `/api/tournaments/${tid}/teams`),
  signUp: (name, handle, password) => call("POST", "/api/players", { body: { name, handle, password } }),
  /** {handle, password} or {handle, code}: a new session for this device, {token, player}. */
  signIn: (body) => call("POST", "/api/sessions", { body }),
  me: (tok = token()) => call("GET", "/api/me", { token: tok }),
  upgrade: (handle, password) => call("PATCH", "/api/me", { body: { handle, password }, token: token() }),
  signOut: () => call("DELETE", "/api/sessions/current", { token: token() }),
  signOutEverywhere: () => call("DELETE", "/api/sessions", { token: token() }),
  club: (id) => call("GET", `/api/clubs/${id}`),
  /** A player's profile: ratings per game and latest results (with the token: a private one of the player or its clubs). */
  profile: (id) => call("GET", `/api/players/${id}`, { token: token() }),
  /** A player's rating before and after each rated game, per game ({history: {"spider78/2": [points]}}). */
  ratingHistory: (id) => call("GET", `/api/players/${id}/ratings/history`, { token: token() }),
  /** The player's own profile made public (true) or kept to itself and its clubs (false). */
  showProfile: (open) => call("PATCH", "/api/me/profile", { body: { public: open }, token: token() }),
  clubMembers: (id) => call("GET", `/api/clubs/${id}/members`, { token: token() }),
  joinClub: (id, invite) => call("POST", `/api/clubs/${id}/members`, { body: { invite }, token: token() }),
  async myEntries(tok = token()) {
    const entries = await call("GET", "/api/me/entries", { token: tok });
    localStorage.setItem(ENTRIES_KEY, JSON.stringify(
      entries.map((e) => ({ id: e.id, tournament_id: e.tournament_id, status: e.status,
        ...(e.bracket_id ? { bracket_id: e.bracket_id, round: e.round ?? null } : {}) }))));
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
  boardPage: (tid, { offset = 0, limit = 20, name = "" } = {}) => call("GET",
    `/api/tournaments/${tid}/leaderboard?offset=${offset}&limit=${limit}${name ? `&name=${encodeURIComponent(name)}` : ""}`),
  around: (tid, eid, k = 3) => call("GET", `/api/tournaments/${tid}/leaderboard/around/${eid}?k=${k}`),
  async replays(tid) {
    const text = await call("GET", `/api/tournaments/${tid}/replays`, { raw: true });
    return text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  },
  disqualified: (tid) => call("GET", `/api/tournaments/${tid}/disqualified`),
  par: (tid) => call("GET", `/api/tournaments/${tid}/par`),
  /** A finished tournament's deal played again, unranked: a practice entry (its game at #/play/ID);
   * `deal`: which one of a tournament of several deals. */
  practice: (tid, deal = null) => call("POST", `/api/tournaments/${tid}/practice`,
    { token: token(), body: deal ? { deal } : undefined }),
  /** The player's practice games, newest first. */
  myPractice: () => call("GET", "/api/me/practice", { token: token() }),
  /** Where a finished game's win was lost: {status: "computing"} until {status: "ready", positions, ...}. */
  analysis: (tid, eid, deal = null) => call("GET",
    `/api/tournaments/${tid}/entries/${eid}/analysis${deal ? `?deal=${deal}` : ""}`, { token: token() }),
  /** Matches (docs/matches.md): the formats with how many matches wait or play in each, asking for a
   * seat ({match, entry}), a match, the player's matches, a finished match's replays, leaving a seat. */
  matchFormats: () => call("GET", "/api/matches/formats"),
  askMatch: (format) => call("POST", "/api/matches", { body: { format }, token: token() }),
  match: (id) => call("GET", `/api/matches/${id}`, { token: token() }),
  myMatches: () => call("GET", "/api/me/matches", { token: token() }),
  leaveMatch: (id) => call("DELETE", `/api/matches/${id}/seat`, { token: token() }),
  async matchReplays(id) {
    const text = await call("GET", `/api/matches/${id}/replays`, { raw: true });
    return text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  },
  /** Knockout brackets (docs/matches.md): the list (with the player's token, its clubs' unlisted ones too),
   * one bracket with its rounds, joining one (`entryCode` when it takes one), the games once finished. */
  brackets: () => call("GET", "/api/brackets?limit=100", { token: token() }),
  bracket: (id) => call("GET", `/api/brackets/${id}`, { token: token() }),
  joinBracket: (id, entryCode) => call("POST", `/api/brackets/${id}/entries`,
    { token: token(), body: entryCode ? { entry_code: entryCode } : undefined }),
  async bracketReplays(id) {
    const text = await call("GET", `/api/brackets/${id}/replays`, { raw: true });
    return text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  },
  createTournament: (body, admin) => call("POST", "/api/tournaments", { body, token: admin }),
  /** An organiser's request with the organiser's credential (organiserToken: the tab's token or the session). */
  admin: (method, path, body, options = {}) => call(method, path, { body, token: organiserToken(), ...options }),
  /** Every page of a paged list, with the organiser's credential. */
  async adminPages(path) {
    const all = [];
    for (let offset = 0; ; offset += 500) {
      const page = await call("GET", `${path}?offset=${offset}&limit=500`, { token: organiserToken() });
      all.push(...page);
      if (page.length < 500) return all;
    }
  },
};

/** ws:// or wss:// URL of a path on this server. */
export function wsUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}
