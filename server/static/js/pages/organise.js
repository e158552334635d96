// The organiser's dashboard (#/organise): for an organiser (its account signed in on this device,
// or a token pasted in this tab) what it runs, with buttons to make more; for anyone else what the
// page is for and how to become an organiser. The token is folded away, for scripts and the owner.

import { adminToken, api, player } from "../lib/api.js";
import { el, explain, fill, notify } from "../lib/ui.js";
import { dashboard } from "../organise/dashboard.js";
import { frame } from "../organise/frame.js";
import { tokenFold } from "../organise/token.js";

const ABOUT = "Run tournaments for a class or a club: make one in a minute, share its link, watch who is " +
  "playing, and keep clubs, seasons and recurring tournaments in one place.";

/** Not signed in: what the page is, and the way in. */
const signedOut = () => el("div", { class: "panel organise-intro", "data-field": "signed-out" },
  el("p", {}, ABOUT),
  el("p", {}, "Organisers sign in with their own account."),
  el("p", { class: "row" }, el("a", { class: "btn primary", href: "#/account", "data-action": "sign-in" }, "Sign in")));

/** Signed in, no organiser: become one where the server allows it, else ask its owner. */
function notOrganiser(me, render) {
  const become = el("button", { class: "btn primary", type: "button", "data-action": "become-organiser" },
    "Become an organiser");
  become.addEventListener("click", async () => {
    become.disabled = true;
    try {
      await api.admin("POST", "/api/me/organiser");
      notify("You are an organiser now", "ok");
      render();
    } catch (err) {
      notify(explain(err), "error", 7000);
      become.disabled = false;
    }
  });
  let how;
  if (me.may_organise) how = [el("p", {}, "This server lets any account organise."), el("p", { class: "row" }, become)];
  else if (!me.handle) {
    how = [el("p", {}, "Organisers sign in with an account: give this player a handle and a password first."),
      el("p", { class: "row" }, el("a", { class: "btn", href: "#/account" }, "Your account"))];
  } else {
    how = [el("p", { "data-field": "ask-owner" }, "On this server the owner makes organisers: ask the person who runs it ",
      `to make the account @${me.handle} an organiser. Then this page shows what you organise.`)];
  }
  return el("div", { class: "panel organise-intro", "data-field": "not-organiser" }, el("p", {}, ABOUT), ...how);
}

export function mount(main) {
  const body = el("div", { class: "organise-home" });
  main.append(frame("Organise", { back: false }, body));
  let turn = 0;
  async function render() {
    const mine = ++turn;
    const fold = tokenFold(render);
    if (adminToken()) {
      return fill(body, el("p", { class: "muted small token-note", "data-field": "token-note" },
        "Working with the token pasted in this tab."), dashboard(), fold);
    }
    if (!player()) return fill(body, signedOut(), fold);
    let me;
    try {
      me = await api.me();
    } catch (err) {
      if (mine !== turn) return null;
      return fill(body, err.status === 401 ? signedOut() : el("p", { class: "error" }, explain(err)), fold);
    }
    if (mine !== turn) return null;
    return fill(body, me.organiser ? dashboard() : notOrganiser(me, render), fold);
  }
  render();
}
