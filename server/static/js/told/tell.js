// Being told: the page's title counting down to a start "together", the result in the title when it
// comes in, and, where the player turned "Notify me" on in Settings and the browser allows it, a
// browser notification while the page is out of view (another tab in front, or the window not focused).

import { settings } from "../lib/prefs.js";
import { clock } from "../lib/ui.js";

export const BASE = "spidertour";
export const SOON_SECONDS = 60; // "starts in a minute": told once, if the page is out of view then

/** The page is not what the player is looking at: hidden, or its window not focused. */
export const outOfView = () => document.hidden || !document.hasFocus();

/** What the browser says of notifications: "granted", "denied", "default", or "unsupported". */
export const permission = () => ("Notification" in window ? Notification.permission : "unsupported");

/** A browser notification, if the player asked for them, the browser granted them and the page is
 * out of view; true when one was shown. */
export function notifyPlayer(title, body, tag) {
  if (!settings().notify || permission() !== "granted" || !outOfView()) return false;
  try {
    const note = new Notification(title, { body, tag, lang: "en" });
    note.onclick = () => {
      window.focus();
      note.close();
    };
    return true;
  } catch {
    // Some phones' browsers show notifications only through a service worker: none here.
    return false;
  }
}

/** The title counts down to `startsAt` every second ("0:42 · Thursday evening · spidertour"); a
 * notification a minute before if the page is out of view. `name()` names the game. Returns stop(). */
export function titleCountdown(startsAt, name) {
  const target = new Date(startsAt).getTime();
  let warned = false;
  const draw = () => {
    const left = (target - Date.now()) / 1000;
    const said = left > 0 ? clock(left) : "Starting\u2026";
    document.title = `${said} \u00b7 ${name()} \u00b7 ${BASE}`;
    if (!warned && left > 0 && left <= SOON_SECONDS) {
      warned = notifyPlayer(`${name()} starts in ${clock(left)}`, "Everyone starts together: your clock runs from then.",
        "spidertour-start");
    }
  };
  draw();
  const timer = setInterval(draw, 1000);
  return () => clearInterval(timer);
}

/** The result in the title ("Result: 2nd of 17 · spidertour") and, when `notify`, as a notification. */
export function tellResult(text, body, notify = true) {
  document.title = `Result: ${text} \u00b7 ${BASE}`;
  if (notify) notifyPlayer(`Result: ${text}`, body, "spidertour-result");
}

/** A note in the title for a moment-long event ("Opponent found · Match 12 · spidertour"). */
export function tellTitle(text, name) {
  document.title = `${text} \u00b7 ${name} \u00b7 ${BASE}`;
}
