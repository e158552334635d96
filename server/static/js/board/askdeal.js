// A deal on a touch screen is asked first. The stock and the draw piles sit just above the columns,
// so a finger aimed at a column's top card can land on them, and a deal can never be undone
// (docs/rules.md "Undo"). A confirmation that says what the deal does, and which pile it takes,
// costs one more tap for a deliberate deal; a "tap again" arming would be as quick but easy to
// trigger by the same slip twice. A mouse click or the D key deals at once: those do not slip.

import { confirmDialog } from "../lib/ui.js";

/**
 * Ask before the deal a tap asked for; resolves true to deal. pile: the pile tapped (null: the
 * stock); choice: whether the player may choose the pile (off: the piles go in order).
 */
export function askDeal(view, pile, choice = true) {
  const dealt = view.columns.filter((_, c) => c !== view.free_column).length;
  if (pile === null) {
    const left = view.deals_left ?? 0;
    return confirmDialog("Deal a new row?",
      `One card face up onto each of the ${dealt} columns (${left} deal${left === 1 ? "" : "s"} left). `
        + "A deal cannot be undone.", "Deal", "Cancel");
  }
  const piles = view.draw_piles || [];
  const which = choice ? pile : Math.max(0, piles.findIndex((p) => p.count));
  const count = piles[which]?.count ?? 0;
  const order = choice || which === pile ? "" : ` The piles are dealt in order: pile ${which + 1} is next.`;
  return confirmDialog(`Deal pile ${which + 1}?`,
    `Its ${count} cards go face up, one onto each of the first ${Math.min(count, dealt)} columns.${order} `
      + "A deal cannot be undone.", `Deal pile ${which + 1}`, "Cancel");
}
