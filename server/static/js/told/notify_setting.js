// Settings' "Notify me": turned on, it asks the browser's permission; a refusal is said plainly and
// leaves it off (told/tell.js shows the notifications).

import { save } from "../lib/prefs.js";
import { permission } from "./tell.js";
import { el } from "../lib/ui.js";

const REFUSED = "Your browser refused notifications for this site. To have them, allow notifications for this "
  + "site in the browser's settings, then turn this on again.";
const UNSUPPORTED = "This browser cannot show notifications from a page.";

export function notifyToggle(on) {
  const note = el("p", { class: "notify-note error", "data-field": "notify-note", role: "status" });
  const say = (text) => {
    note.textContent = text;
    note.hidden = !text;
  };
  const box = el("input", { type: "checkbox", name: "notify", checked: on && permission() === "granted",
    onchange: () => turn(box.checked) });
  async function turn(wanted) {
    if (!wanted) {
      save({ notify: false });
      say("");
      return;
    }
    let answer = permission();
    if (answer === "default") answer = await Notification.requestPermission().catch(() => "denied");
    const granted = answer === "granted";
    box.checked = granted;
    save({ notify: granted });
    say(granted ? "" : answer === "unsupported" ? UNSUPPORTED : REFUSED);
  }
  say(!on ? "" : permission() === "denied" ? REFUSED : permission() === "unsupported" ? UNSUPPORTED : "");
  return el("div", { class: "notify-setting" },
    el("label", { class: "toggle" }, box,
      el("span", {}, el("b", {}, "Notify me"),
        el("small", {}, "A browser notification, while this page is in another tab or window, a minute before a sitting ",
          "where everyone starts together, and when your tournament's or match's result comes in."))),
    note);
}
