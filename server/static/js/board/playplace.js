// Where the play and watch websockets are: on this host at the server's play port when it has one
// (a lighter websocket server in the same process, GET /api/play/socket), else at the page's own address.

import { wsUrl } from "../lib/api.js";

const OPEN_SECONDS = 4; // the play port not open by then: the page's own port instead
let asked = null; // the answer, asked once a page

function playPort() {
  asked ??= fetch("/api/play/socket", { cache: "no-store" })
    .then((r) => (r.ok ? r.json() : { port: null }))
    .then((body) => (Number.isInteger(body?.port) ? body.port : null))
    .catch(() => null);
  return asked;
}

/** A socket's URL (`path`: /ws/play/... or /ws/watch/...) at the server's play port when it has one,
 * else at the page's own address; `ownPort`: the page's own address whatever the server says. */
export async function socketUrl(path, ownPort = false) {
  const port = ownPort ? null : await playPort();
  if (port === null) return { url: wsUrl(path), playPort: false };
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return { url: `${scheme}://${location.hostname}:${port}${path}`, playPort: true };
}

/** The play socket's URL for an entry; `ownPort`: on the page's own port whatever the server says. */
export function playUrl(entryId, ownPort = false) {
  return socketUrl(`/ws/play/${entryId}`, ownPort);
}

/** Open a websocket at `place` (from `socketUrl`), falling back from the play port to the page's own
 * port: when the socket is refused at once (the page's own policy), closes before it opened (a proxy,
 * a firewall) or is not open in OPEN_SECONDS (a firewall dropping it), `fallback.ownPort` is set, so the
 * next `socketUrl` asks for the page's own port. A refusal and the timeout call `again()` at once; a
 * close goes to `onclose`, as any close does, and the page reconnects as it always does.
 * `stale(ws)`: the page has moved on (stopped, or a newer socket): the timeout then does nothing.
 * Returns the socket, or null when it was refused (`again` has been called). */
export function openSocket(place, fallback, { onopen, onmessage, onclose, again, stale }) {
  let ws;
  try {
    ws = new WebSocket(place.url);
  } catch (err) {
    if (!place.playPort) throw err;
    fallback.ownPort = true;
    again();
    return null;
  }
  let opened = false;
  let timer = null;
  ws.onopen = () => {
    opened = true;
    clearTimeout(timer);
    onopen(ws);
  };
  ws.onmessage = onmessage;
  ws.onclose = (event) => {
    clearTimeout(timer);
    if (place.playPort && !opened) fallback.ownPort = true;
    onclose(event, ws);
  };
  if (place.playPort) {
    timer = setTimeout(() => {
      if (opened || stale(ws)) return;
      fallback.ownPort = true;
      ws.onclose = null;
      ws.close();
      again();
    }, OPEN_SECONDS * 1000);
  }
  return ws;
}
