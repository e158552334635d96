// Each page's document title: a page may set its own (the game, a board); otherwise its heading
// names it ("Account · spidertour"), kept in step while the page fills in.

export const BASE_TITLE = "spidertour";
let watching = null;

/** Name the tab after the page's h1 until the page names it itself; called on every route change.
 * The organiser's pages say so ("Thursday evening · organising · spidertour", not the game's title). */
export function titleFromHeading(main, section = "") {
  const suffix = section === "organise" ? ` \u00b7 organising \u00b7 ${BASE_TITLE}` : ` \u00b7 ${BASE_TITLE}`;
  if (watching) watching.disconnect();
  let ours = BASE_TITLE;
  const name = () => {
    if (document.title !== BASE_TITLE && document.title !== ours) return; // the page named it itself
    const h1 = main.querySelector("h1");
    const text = h1 ? h1.textContent.replace(/\s+/g, " ").trim() : "";
    ours = text ? `${text}${suffix}` : BASE_TITLE;
    if (document.title !== ours) document.title = ours;
  };
  watching = new MutationObserver(name);
  watching.observe(main, { childList: true, subtree: true, characterData: true });
  name();
}
