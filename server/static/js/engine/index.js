// The deal (docs/deal.md) and the rules (docs/rules.md) in the browser: enough to rebuild a finished
// tournament's deal from its revealed seed and step through every published replay (docs/replay.md).
// It mirrors the Python engine; this module gathers its parts (rules.js, deal.js, game.js).

import { digest } from "../lib/sha256.js";
import { orderedDeck, Renaming, shuffled } from "./deal.js";
import { Game } from "./game.js";
import { cardText, EngineError, fullSettings, VARIANTS } from "./rules.js";

export { orderedDeck, Renaming, shuffled } from "./deal.js";
export { Game } from "./game.js";
export {
  cardText, checkEntry, EngineError, fullSettings, HIDDEN, movableRun, parseCard, RANKS, SUITS, VARIANTS,
} from "./rules.js";

/**
 * The deal in deal-vectors.json's format (every card shown); with `deal_variation`, entry
 * `entry`'s renamed deal in entry-vectors.json's format.
 */
export async function dealJson(settingsObj, seed, hash = digest, entry = null) {
  const settings = fullSettings(settingsObj);
  const rules = VARIANTS[settings.variant];
  const { game, deck } = await deal(settings, seed, hash, entry);
  const text = (cards) => cards.map(cardText).join(" ");
  const out = { variant: settings.variant, suits: settings.suits, seed };
  if (game.entry !== null) {
    out.entry = game.entry;
    if (rules.piles) out.draw_pile_choice = settings.draw_pile_choice;
  } else {
    out.shuffled = text(deck);
  }
  out.columns = game.columns.slice(0, rules.layout.length).map(text);
  if (game.piles) out.draw_piles = game.piles.map(text);
  if (game.stock) out.stock = text(game.stock);
  return out;
}

/**
 * A new game of these settings (docs/rules.md), dealt from the seed (docs/deal.md). With `deal_variation`
 * it is entry `entry`'s renamed deal (docs/deal.md section 6) and `entry` is required; else it is ignored.
 */
export async function newGame(settingsObj, seed, hash = digest, entry = null) {
  return (await deal(settingsObj, seed, hash, entry)).game;
}

/** newGame, and the shuffled deck it was dealt from. */
async function deal(settingsObj, seed, hash, entry) {
  const settings = fullSettings(settingsObj);
  const rules = VARIANTS[settings.variant];
  if (settings.deal_variation && (entry === null || entry === undefined)) {
    throw new EngineError("deal_variation is on: the game needs 'entry', its entry's ordinal (1, 2, ...)",
      "bad_settings");
  }
  const renaming = settings.deal_variation ? await Renaming.of(settings, seed, entry, hash) : null;
  const deck = await shuffled(orderedDeck(rules.deck, settings.suits), seed, hash);
  const game = new Game(settings, deck);
  if (renaming) {
    renaming.apply(game);
    game.entry = entry;
  }
  return { game, deck };
}

/** docs/replay.md for one game: {initial, steps, final_score}; each step is the view plus ok/error. */
export async function replayGame(spec, hash = digest) {
  for (const name of ["variant", "suits", "seed"]) {
    if (spec[name] === undefined || spec[name] === null) throw new EngineError(`a game needs '${name}'`, "bad_settings");
  }
  // Deal k of several (docs/replay.md `deal`): dealt from the seed string "<seed>/<k>".
  const seed = spec.deal === undefined || spec.deal === null ? spec.seed : `${spec.seed}/${spec.deal}`;
  const game = await newGame(spec, seed, hash, spec.entry ?? null);
  const initial = game.view();
  const steps = (spec.moves || []).map((raw) => {
    try {
      if (raw && raw.t !== undefined && raw.t !== null) game.tick(raw.t);
      game.play(raw);
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      return { ...game.view(), ok: false, error: err.reason, code: err.code };
    }
    return { ...game.view(), ok: true };
  });
  return { initial, steps, final_score: game.finalScore };
}

/** SHA-256 hex of the canonical JSON of {"salt", "seed", "settings"}: the tournament's commitment.
 * `salt` null or undefined: the form of tournaments created before salts, {"seed", "settings"}. */
export async function commitment(seed, settings, salt = null, hash = digest) {
  const canonical = (v) => {
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  };
  const committed = salt === null || salt === undefined ? { seed, settings } : { salt, seed, settings };
  const bytes = new TextEncoder().encode(canonical(committed));
  return Array.from(await hash(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}
