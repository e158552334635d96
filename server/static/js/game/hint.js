// A hint for the first game: one useful move on the table, worked out from the rules (engine/rules.js)
// on the view the player sees. Every legal card move is weighed; the best one is shown:
//   1. a move that completes a King-to-Ace sequence,
//   2. a move that turns a face-down card (better still onto a card of its suit),
//   3. a move that builds a longer run of one suit, or empties a column,
//   4. a move into an empty column that lets another column's run onto the card it leaves,
// and none that only shuffles a run from one equal place to another. The free column (a win without
// it earns 100 points) is offered last, for a move that turns a card when nothing else helps.
// When no move helps, the hint is to deal a draw pile.

import { HIDDEN, movableRun, parseCard, VARIANTS } from "../engine/rules.js";

/** The card below the last `count` cards of a column, or null (none, or face down). */
function below(cards, count) {
  const text = cards[cards.length - count - 1];
  return text && text !== HIDDEN ? parseCard(text) : null;
}

/** Whether the last `count` cards of column src may go onto column dst. */
function fits(view, rules, src, count, dst) {
  const from = view.columns[src];
  const to = view.columns[dst];
  const first = parseCard(from[from.length - count]);
  if (!to.length) return !(rules.kingOnly && dst !== view.free_column && (first & 15) !== 12);
  return to[to.length - 1] !== HIDDEN && rules.accepts(parseCard(to[to.length - 1]), first);
}

/** Whether another column's movable run starts with the card of `under`'s suit one rank lower. */
function roomFor(view, under, src, dst) {
  return view.columns.some((cards, c) => {
    if (c === src || c === dst || !cards.length) return false;
    const run = movableRun(view.variant, cards);
    return run > 0 && parseCard(cards[cards.length - run]) === under - 1;
  });
}

/** How much a legal move helps (0: not at all), and why, in words. */
function weigh(view, src, count, dst) {
  const from = view.columns[src];
  const to = view.columns[dst];
  const first = parseCard(from[from.length - count]);
  const hidden = from.filter((t) => t === HIDDEN).length;
  const reveals = hidden > 0 && count === from.length - hidden;
  const onSuit = to.length > 0 && parseCard(to[to.length - 1]) === first + 1;
  const under = below(from, count);
  if (onSuit) {
    const joined = [...to, ...from.slice(from.length - count)];
    if (movableRun(view.variant, joined) >= 13 && (parseCard(joined[joined.length - 1]) & 15) === 0) {
      return [1000, "it completes a sequence"];
    }
  }
  if (under !== null && under === first + 1) return [0, ""]; // already on its own suit's next card
  const free = dst === view.free_column;
  if (reveals && free) return [30, "it turns a face-down card (the free column's +100 is given up)"];
  if (reveals) return [onSuit ? 500 : to.length ? 400 : 300, "it turns a face-down card"];
  if (!to.length) { // into an empty column: only to make room on the card under it
    return under !== null && roomFor(view, under, src, dst) ? [free ? 5 : 10, "it makes room for a run on the card under it"]
      : [0, ""];
  }
  if (onSuit) return [200 + count, "it builds a longer run of one suit"];
  if (under !== null && (under & 15) === (first & 15) + 1) return [0, ""]; // from one such place to another
  if (count === from.length) return [150, "it empties a column"];
  return [under === null ? 0 : 20, "it frees the card under it"];
}

/**
 * The hint for a view: {col, count, to, why} for a card move; {pile} (or {stock: true}) to deal;
 * {stuck: true} when nothing is left but to undo or end.
 */
export function findHint(view) {
  const rules = VARIANTS[view.variant];
  let best = null;
  view.columns.forEach((cards, src) => {
    const run = cards.length ? movableRun(view.variant, cards) : 0;
    for (let count = run; count >= 1; count--) {
      view.columns.forEach((_, dst) => {
        if (dst === src || !fits(view, rules, src, count, dst)) return;
        const [value, why] = weigh(view, src, count, dst);
        if (value > 0 && (!best || value > best.value)) best = { col: src, count, to: dst, why, value };
      });
    }
  });
  if (best) return best;
  const pile = (view.draw_piles || []).findIndex((p) => p.count > 0);
  if (pile >= 0) return { pile };
  if ((view.deals_left ?? 0) > 0) return { stock: true };
  return { stuck: true };
}
