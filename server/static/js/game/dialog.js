// The result panel as a modal dialog (js/game/over.js fills it): the focus goes into it when it
// shows, Tab and Shift+Tab go round its buttons and links, Escape or its Close button leaves it, and
// the focus goes back to the head's Result button (which opens it again).

const FOCUSABLE = "a[href], button:not([disabled]), [tabindex]:not([tabindex='-1'])";

export function resultDialog(panel, opener) {
  const visible = (n) => n.getClientRects().length > 0;
  const heading = () => panel.querySelector("#over-title");
  const focusIn = () => (heading() || panel).focus({ preventScroll: true });

  panel.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      e.preventDefault();
      close();
      return;
    }
    if (e.key !== "Tab") return;
    const items = [...panel.querySelectorAll(FOCUSABLE)].filter((n) => n.tabIndex >= 0 && visible(n));
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    const here = document.activeElement;
    if (e.shiftKey && (here === first || here === heading() || !panel.contains(here))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (here === last || !panel.contains(here))) {
      e.preventDefault();
      first.focus();
    }
  });

  function close() {
    panel.hidden = true;
    const back = opener();
    if (back && !back.hidden) back.focus();
  }

  return {
    open() {
      panel.hidden = false;
      panel.scrollTop = 0;
      focusIn();
    },
    close,
    /** Just filled (filling shows it): the focus into it, unless it is already there (then kept there). */
    shown(wasInside) {
      if (panel.hidden) return;
      if (wasInside || !panel.contains(document.activeElement)) focusIn();
    },
  };
}
