// The play websocket: authenticate, send moves one at a time with growing sequence numbers, and
// after a dropped connection reconnect by itself, authenticate again (the server answers with the
// whole state) and resend the move that was not answered, with the same sequence number.

import { openSocket, playUrl } from "./playplace.js";

const ANSWER_SECONDS = 8; // a move unanswered this long: the connection is presumed dead
const PING_SECONDS = 25;
const NO_RETRY = new Set([4001, 4003, 4008]); // taken over, not yours, flooding: a person decides

/** The view after a result: its changed columns replaced and its other fields merged in. */
export function applyResult(view, result) {
  const columns = view.columns.slice();
  result.changed.forEach((column, i) => {
    columns[column] = result.columns[i];
  });
  return { ...view, ...result.fields, columns };
}

export class PlaySocket {
  /** handlers: state, result, error, over, notice(code, reason), connection(status, detail) */
  constructor(entryId, token, handlers) {
    this.entryId = entryId;
    this.token = token;
    this.on = handlers;
    this.ws = null;
    this.ready = false; // authenticated: the server's state has arrived
    this.queue = []; // messages not yet sent
    this.inflight = null; // the message sent and not yet answered
    this.seq = 0; // the last sequence number used
    this.view = null; // the whole view: from state, brought up to date by every result
    this.attempts = 0;
    this.stopped = false;
    this.timers = { retry: null, answer: null, ping: null };
    this.ownPort = false; // the play port could not be reached: the page's own port from then on
    this.opening = 0; // which connect() is the latest
  }

  connect() {
    this.stopped = false;
    this.ready = false;
    this.on.connection?.(this.attempts ? "reconnecting" : "connecting");
    const opening = ++this.opening;
    playUrl(this.entryId, this.ownPort).then((place) => {
      if (!this.stopped && opening === this.opening) this.open(place);
    });
  }

  open(place) {
    const ws = openSocket(place, this, {
      onopen: (socket) => socket.send(JSON.stringify({ type: "auth", token: this.token })),
      onmessage: (event) => this.receive(JSON.parse(event.data)),
      onclose: (event, socket) => this.closed(socket, event),
      again: () => this.connect(),
      stale: (socket) => socket !== this.ws || this.stopped,
    });
    if (ws === null) return;
    this.ws = ws;
    clearInterval(this.timers.ping);
    this.timers.ping = setInterval(() => this.raw({ type: "ping" }), PING_SECONDS * 1000);
  }

  stop() {
    this.stopped = true;
    this.opening += 1;
    Object.values(this.timers).forEach((t) => { clearTimeout(t); clearInterval(t); });
    if (this.ws) this.ws.close(1000, "page left");
  }

  /** Start the game (its clock starts on the server). */
  start() {
    this.raw({ type: "start" });
  }

  sync() {
    this.raw({ type: "sync" });
  }

  /** A move, deal, undo or end: queued, sent once everything before it has been answered. */
  send(move) {
    this.queue.push({ ...move });
    this.pump();
  }

  get busy() {
    return this.inflight !== null || this.queue.length > 0;
  }

  raw(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN && (this.ready || msg.type === "auth")) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  pump() {
    if (this.inflight || !this.queue.length || !this.ready) return;
    const msg = this.queue.shift();
    msg.seq = ++this.seq;
    this.inflight = msg;
    this.transmit();
  }

  transmit() {
    if (!this.inflight) return;
    this.raw(this.inflight);
    clearTimeout(this.timers.answer);
    this.timers.answer = setTimeout(() => {
      if (this.inflight && this.ws) this.ws.close(4000, "no answer"); // reconnect and resend
    }, ANSWER_SECONDS * 1000);
  }

  answered() {
    clearTimeout(this.timers.answer);
    const msg = this.inflight;
    this.inflight = null;
    return msg;
  }

  receive(msg) {
    switch (msg.type) {
      case "state": {
        const first = !this.ready;
        this.ready = true;
        this.view = msg.view ?? null;
        this.attempts = 0;
        this.seq = Math.max(this.seq, msg.last_seq);
        this.on.connection?.("open");
        this.on.state?.(msg, first);
        if (this.inflight) this.transmit(); // unanswered before the drop: the same seq again
        else this.pump();
        break;
      }
      case "result": {
        if (this.inflight && msg.seq === this.inflight.seq) this.answered();
        this.seq = Math.max(this.seq, msg.seq);
        if (this.view) msg.view = this.view = applyResult(this.view, msg);
        this.on.result?.(msg);
        this.pump();
        break;
      }
      case "over":
        this.on.over?.(msg);
        break;
      case "error":
        this.error(msg);
        break;
      default:
        break; // pong
    }
  }

  error(msg) {
    if (msg.code === "try_again" && this.inflight && msg.seq === this.inflight.seq) {
      setTimeout(() => this.transmit(), 500);
      this.on.notice?.(msg.code, msg.reason);
      return;
    }
    if (msg.code === "slow_down") {
      setTimeout(() => this.transmit(), 1000); // the move may have been dropped unanswered
      this.on.notice?.(msg.code, msg.reason);
      return;
    }
    let sent = null;
    if (this.inflight && msg.seq === this.inflight.seq) {
      sent = this.answered();
      if (msg.code === "stale_seq" || msg.code === "seq_reused") {
        // Another tab moved meanwhile: take a fresh number and ask for the position again.
        this.seq += 1;
        this.sync();
      }
    }
    if (msg.seq === null || msg.seq === undefined) this.on.notice?.(msg.code, msg.reason);
    else this.on.error?.(msg, sent);
    this.pump();
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    this.ready = false;
    clearTimeout(this.timers.answer);
    clearInterval(this.timers.ping);
    if (this.stopped) return;
    if (NO_RETRY.has(event.code)) {
      this.on.connection?.("closed", { code: event.code, reason: event.reason });
      return;
    }
    this.attempts += 1;
    const delay = Math.min(5000, 250 * 2 ** Math.min(this.attempts, 5));
    this.on.connection?.("reconnecting", { delay });
    this.timers.retry = setTimeout(() => this.connect(), delay);
  }
}
