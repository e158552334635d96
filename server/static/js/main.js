// The single page: hash routes to small page modules, each mounted into <main> and cleaned up
// when the route changes.

import { player } from "./lib/api.js";
import { apply } from "./lib/prefs.js";

const ROUTES = [
  [/^#\/lobby$/, () => import("./pages/lobby.js")],
  [/^#\/play\/(\d+)$/, () => import("./pages/game.js")],
  [/^#\/board\/(\d+)$/, () => import("./pages/leaderboard.js")],
  [/^#\/finished\/(\d+)$/, () => import("./pages/finished.js")],
  [/^#\/organise$/, () => import("./pages/organise.js")],
  [/^#\/settings$/, () => import("./pages/settings.js")],
];

let cleanup = null;
let routing = 0;

async function route() {
  const hash = location.hash || "#/lobby";
  const found = ROUTES.find(([pattern]) => pattern.test(hash));
  if (!found) {
    location.replace("#/lobby");
    return;
  }
  const turn = ++routing;
  const [pattern, load] = found;
  const module = await load();
  if (turn !== routing) return;
  if (cleanup) cleanup();
  cleanup = null;
  const main = document.getElementById("main");
  main.replaceChildren();
  document.title = "spidertour";
  document.querySelectorAll("nav a").forEach((a) =>
    a.classList.toggle("active", hash.startsWith(a.getAttribute("href"))));
  const me = player();
  document.getElementById("who").textContent = me ? me.name : "";
  document.body.dataset.route = hash.split("/")[1] || "lobby";
  cleanup = module.mount(main, ...hash.match(pattern).slice(1)) || null;
  window.scrollTo(0, 0);
}

apply();
window.addEventListener("hashchange", route);
route();
