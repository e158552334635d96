// Where the play and watch websockets are: on this host at the server's play port when it has one
// (a lighter websocket server in the same process, GET /api/play/socket), else at the page's own address.

import { wsUrl } from "../lib/api.js";

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
