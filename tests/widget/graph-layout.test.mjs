// A check's graph is never drawn with text smaller than MIN_TEXT_PX: the drawing that fits at
// that size is shown, else the narrower one at that size, scrolling sideways.
import assert from "node:assert/strict";
import { test } from "node:test";
import { layoutFor, MIN_TEXT_PX } from "../../widget/src/exercise/graph-view.js";

// the diamond's check of 18 values (assets/course/graphs/diamond.*.json): viewBox widths, font 12
const WIDE = { width: 1686, text: 12 };
const NARROW = { width: 578, text: 12 };
const textPx = (space, layout) => {
  const drawing = layout === "wide" ? WIDE : NARROW;
  const { minWidth } = layoutFor(space, WIDE, NARROW);
  // drawn at most at its own size (Graphviz's points, 4/3 px each), at least at its minimum
  return (Math.max(Math.min(space, (drawing.width * 4) / 3), minWidth[layout]) / drawing.width) * drawing.text;
};

test("at 1280 px (a 660 px result), the top-down drawing, its text at least the minimum", () => {
  const { layout, minWidth } = layoutFor(660, WIDE, NARROW);
  assert.equal(layout, "narrow");
  assert.ok(minWidth.narrow <= 660, "it fits: no scrolling");
  assert.ok(textPx(660, layout) >= MIN_TEXT_PX);
});

test("on a 390 px phone, the top-down drawing at the minimum, wider than the phone: it scrolls", () => {
  const { layout, minWidth } = layoutFor(330, WIDE, NARROW);
  assert.equal(layout, "narrow");
  assert.equal(minWidth.narrow, 578);
  assert.ok(textPx(330, layout) >= MIN_TEXT_PX);
});

test("wide enough for the left-to-right drawing at the minimum, that one", () => {
  assert.equal(layoutFor(1700, WIDE, NARROW).layout, "wide");
  assert.equal(layoutFor(1685, WIDE, NARROW).layout, "narrow");
  assert.equal(layoutFor(600, { width: 300, text: 14 }, { width: 200, text: 14 }).layout, "wide");
});
