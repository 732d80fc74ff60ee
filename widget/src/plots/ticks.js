/** Tick labels short enough for a plot's axis, whatever the size of the number: a loss can fall
 * to 0.0003 or blow up to 1.9e17. Pure functions, tested in Node. */

/** `value` in at most about six characters: 0.63, 12.5, 3e+4, 2e-5, 1.9e+17. */
export function compact(value) {
  if (!Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  if (size !== 0 && (size >= 1e4 || size < 1e-3)) return value.toExponential(size >= 1e4 ? 1 : 0).replace(".0e", "e");
  return String(Number(value.toPrecision(3)));
}

/**
 * uPlot's `values` for a log axis: each tick, compact; where the ticks span more than two powers
 * of ten, only powers of ten are labelled, and few enough of them to stay apart.
 */
export function compactTicks(_plot, ticks) {
  const positive = ticks.filter((v) => v !== null && v > 0);
  const decades = positive.length ? Math.log10(Math.max(...positive) / Math.min(...positive)) : 0;
  // uPlot passes null for the ticks its log scale leaves unlabelled
  if (decades <= 2) return ticks.map((v) => (v === null ? "" : compact(v)));
  const every = Math.max(1, Math.ceil(decades / 6));
  return ticks.map((v) => {
    if (v === null) return "";
    const exponent = Math.round(Math.log10(v));
    const power = Math.abs(Math.log10(v) - exponent) < 1e-9;
    return power && exponent % every === 0 ? compact(v) : "";
  });
}
