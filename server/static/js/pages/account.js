// The account page (#/account): sign up, sign in (password or sign-in code), a guest becoming an
// account, signing out of this device or of every device. The session's token is kept where a
// guest's token is (api.js player()), so every other page goes on working with it.

import { api, forgetPlayer, player, setPlayer } from "../lib/api.js";
import { confirmDialog, el, explain, notify, showWho, fill } from "../lib/ui.js";
import { checkCode, checkHandle, checkName, checkPassword, firstProblem } from "../lib/checks.js";

const AFTER_KEY = "spidertour.after-sign-in";

/** Where to go once signed in (the join page sends people here first). */
export function signInThenReturn(hash) {
  sessionStorage.setItem(AFTER_KEY, hash);
  location.hash = "#/account";
}

const handleOf = (text) => text.trim().replace(/^@/, "").toLowerCase();

function field(label, input, hint) {
  return el("label", { class: "field" }, el("span", {}, label), input, hint ? el("small", { class: "muted" }, hint) : null);
}

function input(name, attrs = {}) {
  return el("input", { name, "data-field": name, ...attrs });
}

const handleInput = () => input("handle", { required: true, minlength: 3, maxlength: 25, autocapitalize: "none",
  spellcheck: "false", autocomplete: "username", placeholder: "ann_1", pattern: "@?[A-Za-z0-9_\\-]{3,24}" });
const passwordInput = (fresh) => input("password", { type: "password", required: true, minlength: 8, maxlength: 1024,
  autocomplete: fresh ? "new-password" : "current-password" });

export function mount(main) {
  const page = el("section", { class: "page narrow-page account-page" });
  const error = el("p", { class: "error", "data-field": "error", role: "alert", hidden: true });
  main.append(page);
  let alive = true;

  function fail(err) {
    error.textContent = typeof err === "string" ? err : explain(err);
    error.hidden = false;
    error.scrollIntoView({ block: "nearest" });
  }

  /** A form's own check before it is sent: false (and the problem said) when something is to fix. */
  function checked(problem) {
    if (problem) fail(problem);
    return !problem;
  }

  function clear() {
    error.hidden = true;
    error.textContent = "";
  }

  /** A new token for this device: keep it, fetch this player's entries, go on. */
  async function signedIn(token, me) {
    setPlayer({ id: me.id, name: me.name, handle: me.handle, token });
    try {
      await api.myEntries();
    } catch {
      /* the lobby fetches them again */
    }
    showWho();
    notify(`Signed in as @${me.handle}`, "ok");
    const after = sessionStorage.getItem(AFTER_KEY);
    sessionStorage.removeItem(AFTER_KEY);
    if (after) location.hash = after;
    else draw();
  }

  function signInForm() {
    const handle = handleInput();
    const secret = passwordInput(false);
    const code = input("code", { required: false, maxlength: 64, autocomplete: "one-time-code", autocapitalize: "none",
      spellcheck: "false", placeholder: "from your organiser's sheet" });
    const withCode = el("input", { type: "checkbox", "data-field": "with-code" });
    const secretField = field("Password", secret);
    const codeField = field("Sign-in code", code);
    codeField.hidden = true;
    withCode.addEventListener("change", () => {
      secretField.hidden = withCode.checked;
      codeField.hidden = !withCode.checked;
      secret.required = !withCode.checked;
      code.required = withCode.checked;
    });
    const form = el("form", { class: "panel stack-form", "data-form": "sign-in", novalidate: true },
      el("h2", {}, "Sign in"),
      field("Handle", handle), secretField, codeField,
      el("label", { class: "check-field" }, withCode, "I have a code"),
      el("button", { class: "btn primary", type: "submit", "data-action": "sign-in" }, "Sign in"));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear();
      if (!checked(firstProblem(checkHandle(handle.value),
        withCode.checked ? checkCode(code.value, "sign-in code") : checkPassword(secret.value)))) return;
      const body = withCode.checked ? { handle: handleOf(handle.value), code: code.value.trim() }
        : { handle: handleOf(handle.value), password: secret.value };
      try {
        const out = await api.signIn(body);
        await signedIn(out.token, out.player);
      } catch (err) {
        fail(err);
      }
    });
    return form;
  }

  function signUpForm() {
    const name = input("name", { required: true, maxlength: 40, autocomplete: "nickname", placeholder: "Ann" });
    const handle = handleInput();
    const secret = passwordInput(true);
    const form = el("form", { class: "panel stack-form", "data-form": "sign-up", novalidate: true },
      el("h2", {}, "New account"),
      field("Display name", name),
      field("Handle", handle, "3 to 24 letters, digits, _ or -; shown as @handle. Capitals count as small letters."),
      field("Password", secret, "At least 8 characters."),
      el("button", { class: "btn primary", type: "submit", "data-action": "sign-up" }, "Create the account"));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear();
      if (!checked(firstProblem(checkName(name.value), checkHandle(handle.value), checkPassword(secret.value, true)))) return;
      try {
        const made = await api.signUp(name.value.trim(), handleOf(handle.value), secret.value);
        await signedIn(made.token, { id: made.id, name: made.name, handle: made.handle });
      } catch (err) {
        fail(err);
      }
    });
    return form;
  }

  function upgradeForm(me) {
    const handle = handleInput();
    const secret = passwordInput(true);
    const form = el("form", { class: "panel stack-form", "data-form": "upgrade", novalidate: true },
      el("h2", {}, "Keep this player: make it an account"),
      el("p", { class: "muted" }, "Choose a handle and a password to sign in on any device. ",
        "Your entries stay yours, and this device stays signed in."),
      field("Handle", handle), field("Password", secret, "At least 8 characters."),
      el("button", { class: "btn primary", type: "submit", "data-action": "upgrade" }, "Make it an account"));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear();
      if (!checked(firstProblem(checkHandle(handle.value), checkPassword(secret.value, true)))) return;
      try {
        const out = await api.upgrade(handleOf(handle.value), secret.value);
        setPlayer({ ...me, id: out.id, name: out.name, handle: out.handle });
        showWho();
        notify(`This player is now @${out.handle}`, "ok");
        draw();
      } catch (err) {
        fail(err);
      }
    });
    return form;
  }

  /** A club member who signs in with a code chooses a password (its code then stops working). */
  function passwordForm(me) {
    const secret = passwordInput(true);
    const form = el("form", { class: "panel stack-form", "data-form": "choose-password", novalidate: true },
      el("h3", {}, "Choose a password"),
      el("p", { class: "muted" }, "You sign in with a code from your club. With a password of your own you sign in ",
        "with it instead, and the code stops working."),
      field("Password", secret, "At least 8 characters."),
      el("button", { class: "btn", type: "submit", "data-action": "choose-password" }, "Use this password"));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear();
      if (!checked(checkPassword(secret.value, true))) return;
      try {
        await api.upgrade(me.handle, secret.value);
        notify(`From now on @${me.handle} signs in with this password`, "ok");
        draw();
      } catch (err) {
        fail(err);
      }
    });
    return form;
  }

  async function signOut(everywhere) {
    clear();
    if (everywhere && !(await confirmDialog("Sign out everywhere?",
      "Every device signed in to this account is signed out, this one included. Games in progress are kept.",
      "Sign out everywhere"))) return;
    try {
      await (everywhere ? api.signOutEverywhere() : api.signOut());
    } catch (err) {
      if (err.status !== 401) return fail(err);
    }
    forgetPlayer();
    showWho();
    notify(everywhere ? "Signed out on every device" : "Signed out on this device", "ok");
    draw();
  }

  function accountPanel(me) {
    return el("div", { class: "panel", "data-panel": "account" },
      el("h2", {}, el("span", { "data-field": "signed-in-handle" }, `@${me.handle}`)),
      el("p", {}, "Signed in as ", el("b", { "data-field": "name" }, me.name), " on this device."),
      el("p", { class: "row" },
        el("a", { class: "btn", href: "#/me", "data-action": "my-page" }, "My page: clubs and results"),
        el("a", { class: "btn ghost", href: "#/lobby" }, "Lobby")),
      el("h3", {}, "Signing out"),
      el("p", { class: "row" },
        el("button", { class: "btn", type: "button", "data-action": "sign-out", onclick: () => signOut(false) },
          "Sign out of this device"),
        el("button", { class: "btn danger", type: "button", "data-action": "sign-out-everywhere",
          onclick: () => signOut(true) }, "Sign out everywhere")),
      el("p", { class: "muted small" }, "Everywhere: after losing a phone, or signing in on a shared computer."),
      me.has_password === false ? passwordForm(me) : null);
  }

  async function draw() {
    if (!alive) return;
    let me = player();
    if (me && !me.handle) {
      // A guest's record may predate accounts; ask the server who this token is.
      try {
        const fresh = await api.me();
        me = { ...me, id: fresh.id, name: fresh.name, handle: fresh.handle };
        setPlayer(me);
        showWho();
      } catch {
        me = player();
      }
    }
    if (!alive) return;
    const parts = [el("h1", {}, "Account"), error];
    if (me && me.handle) {
      let fresh = null;
      try {
        fresh = await api.me();  // has it a password, or a club's code?
      } catch {
        fresh = null;
      }
      if (!alive) return;
      parts.push(accountPanel(fresh ? { ...me, has_password: fresh.has_password } : me));
    }
    else if (me) {
      parts.push(el("div", { class: "panel", "data-panel": "guest" },
        el("h2", {}, "Playing as ", el("span", { "data-field": "name" }, me.name), " (guest)"),
        el("p", { class: "muted" }, "A guest lives on this device only: clear the browser and it is gone.")),
      upgradeForm(me),
      el("details", { class: "panel" }, el("summary", {}, "Sign in to another account instead"),
        el("p", { class: "muted" }, "This device then plays as that account; the guest's entries stay with the guest."),
        signInForm()));
    } else {
      parts.push(el("div", { class: "account-forms" }, signInForm(), signUpForm()),
        el("p", { class: "muted" }, "Or play as a guest, with a name only, from the ", el("a", { href: "#/lobby" }, "lobby"), "."));
    }
    fill(page, ...parts);
  }

  draw();
  return () => {
    alive = false;
  };
}
