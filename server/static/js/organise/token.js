// The organiser's token, folded away under the dashboard: for scripts and the server's owner, who
// paste the admin token or an organiser's token; kept in this tab only (sessionStorage).

import { adminToken, setAdminToken } from "../lib/api.js";
import { el } from "../lib/ui.js";
import { field } from "./common.js";

/** The fold ("Use a token instead"); `changed()` is called when the token is set or forgotten. */
export function tokenFold(changed) {
  const input = el("input", { id: "f-admin", name: "admin", type: "password", value: adminToken(), autocomplete: "off",
    "aria-label": "Admin or organiser token" });
  const use = () => {
    if (input.value.trim() === adminToken()) return;
    setAdminToken(input.value.trim());
    changed();
  };
  input.addEventListener("change", use);
  const form = el("form", { class: "token-form" },
    field("Admin or organiser token", input, "The server's admin token, or the token of an organiser it made. " +
      "Kept in this tab only, until it closes."),
    el("div", { class: "row" }, el("button", { class: "btn", type: "submit", "data-action": "use-token" }, "Use this token"),
      adminToken() ? el("button", { class: "btn ghost", type: "button", "data-action": "forget-token", onclick: () => {
        input.value = "";
        use();
      } }, "Forget the token") : null));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    use();
  });
  return el("details", { class: "token-fold", "data-field": "token-fold" },
    el("summary", {}, adminToken() ? "A token is in use in this tab" : "Use a token instead"), form);
}
