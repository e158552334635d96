// A small graph of a player's rating over its rated games in one game (the profile): an inline SVG
// line with a dot per game, the first and last numbers written beside it, and a text alternative
// ("From 1,000 to 1,240 over 12 games") read aloud in place of the drawing.

import { el } from "../lib/ui.js";
import { ratingNumber } from "./rating_words.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 320; // the drawing's own units: it scales to the width it is given
const H = 96;
const PAD = { left: 6, right: 6, top: 10, bottom: 10 };

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** "From 1,000 to 1,240 over 12 games" (one game: "1,040 after 1 game"). */
export function graphWords(points) {
  const last = points[points.length - 1].after;
  if (points.length === 1) return `${ratingNumber(last)} after 1 game`;
  return `From ${ratingNumber(points[0].before)} to ${ratingNumber(last)} over ${points.length} games`;
}

/** The graph of one game's points (oldest first, each {before, after}); null without any. */
export function ratingGraph(game, points, title) {
  if (!points.length) return null;
  const values = [points[0].before, ...points.map((p) => p.after)];
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 20) { low -= 10; high += 10; } // a flat line sits in the middle
  const x = (i) => PAD.left + (i * (W - PAD.left - PAD.right)) / (values.length - 1);
  const y = (v) => PAD.top + ((high - v) * (H - PAD.top - PAD.bottom)) / (high - low);
  const words = graphWords(points);
  const drawing = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-graph-svg", role: "img",
    "aria-label": `${title}: ${words}` });
  drawing.append(svg("line", { x1: 0, x2: W, y1: y(values[0]), y2: y(values[0]), class: "start-line" }));
  drawing.append(svg("polyline", { points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
    class: "line", "vector-effect": "non-scaling-stroke" }));
  values.slice(1).forEach((v, i) => drawing.append(svg("circle", { cx: x(i + 1), cy: y(v), r: 2.5,
    class: points[i].change >= 0 ? "dot up" : "dot down" })));
  return el("figure", { class: "rating-graph", "data-field": "rating-graph", "data-game": game },
    el("figcaption", { class: "small" }, el("b", {}, title), ": ", el("span", { "data-field": "graph-words" }, words)),
    el("div", { class: "rating-graph-box" }, drawing));
}
