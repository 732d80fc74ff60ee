/**
 * A lesson page's notebook, as facts and rules with no DOM and no Python (tests/widget/
 * lesson-cells.test.mjs): which blocks run before the one asked for, and whether what each block,
 * graph and claim shows still holds for the page's code and its session.
 *
 * The facts: `original[i]`, the page's code of block i; `codes[i]`, the code in its editor now;
 * `history`, the runs of the current session in order (`{cell, code}`); `shown[i]`, where block
 * i's output came from: `{from: "build"}`, or `{from: "run", code, at, session, error}` (`at`: its
 * place in its session's history). A graph or claim stands after block `after` and has a
 * `shown` of the same kind, without `code`.
 */

// the page's own code of a block ran to its end at build time (in CPython, which is faster than
// Pyodide): its time limit is this, not the course's, which a training block outlasts
export const PAGE_CODE_LIMIT_S = 120;
// an edited block may take as long as this many times its page's code took here
export const EDITED_SLACK = 3;

/**
 * The time limit, in seconds, of a run of `code` in a block whose page code is `original`: the
 * page's own code gets PAGE_CODE_LIMIT_S; an edit, the course's `timeLimit`, or EDITED_SLACK
 * times what the page's code `took` here (seconds, undefined until it ran), whichever is longer.
 * An edit of a block the build found `long` (course/cells.py) before its page code ran here
 * gets as long as the page's code: the course's limit would stop a changed training loop.
 */
export function blockLimit({ code, original, long, took, timeLimit }) {
  if (code === original || (long && took === undefined)) return PAGE_CODE_LIMIT_S;
  return Math.max(timeLimit, Math.ceil(EDITED_SLACK * (took ?? 0)));
}

/** The blocks before `k` that have not run in this session, in page order: they run first. */
export function runFirst(history, k) {
  const ran = new Set(history.map((run) => run.cell));
  return Array.from({ length: k }, (_, j) => j).filter((j) => !ran.has(j));
}

/** "ran blocks 1-3 first", "ran block 2 first", "ran blocks 1, 3 and 4 first" (counted from 1). */
export function saidFirst(blocks) {
  if (!blocks.length) return "";
  const runs = [];
  for (const block of blocks.map((j) => j + 1)) {
    const last = runs.at(-1);
    if (last && block === last[1] + 1) last[1] = block;
    else runs.push([block, block]);
  }
  // two blocks in a row are two blocks ("1 and 2"); three or more, a range ("1-3")
  const parts = runs.flatMap(([a, b]) => (a === b ? [`${a}`] : b === a + 1 ? [`${a}`, `${b}`] : [`${a}-${b}`]));
  const words = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
  return `ran ${blocks.length > 1 ? "blocks" : "block"} ${words} first`;
}

/** True when the session ran the page's own code in page order, from its first block, and no
 * other: what the build ran, so the build's outputs are this session's too. */
export function canonical(history, original) {
  return history.every((run, i) => run.cell === i && run.code === original[i]);
}

/**
 * Whether what stands after block `after` (a block's output, a graph, a claim), made as `shown`
 * says, is out of date: the build's, once code at or above it differs from the page's or the
 * session ran anything else there than the page's code in order (what ran below it since does
 * not change what stood there); a run's, once its session has ended, its own code was edited
 * since (`code`, for a block), a block above it ran after it, or a block above it was edited
 * since it last ran (what stands below depended on the code that was there).
 */
export function outOfDate(after, shown, { original, codes, history, session }, code = null) {
  if (shown.from === "build") {
    const edited = codes.slice(0, after + 1).some((text, j) => text !== original[j]);
    return (
      edited ||
      !canonical(
        history.filter((run) => run.cell <= after),
        original,
      )
    );
  }
  if (shown.session !== session) return true;
  if (code !== null && code !== shown.code) return true;
  const above = code === null ? after + 1 : after; // a block's own code is `code`
  const editedAbove = codes.slice(0, above).some((text, j) => {
    const last = history.findLast((run) => run.cell === j);
    return last !== undefined && text !== last.code;
  });
  return (
    editedAbove || history.slice(shown.at + 1).some((run) => run.cell < after || (code === null && run.cell <= after))
  );
}

/** The `data-cell-state` of block `i` at rest: idle (the build's output, still true), done,
 * error, or stale. */
export function cellState(i, facts) {
  const shown = facts.shown[i];
  if (outOfDate(i, shown, facts, facts.codes[i])) return "stale";
  if (shown.from === "build") return "idle";
  return shown.error ? "error" : "done";
}

/** Whether a run of a block that raised goes on to the next block: only where the page's block
 * raises that on purpose (the build runs on past it). */
export function goesOn(answer, raises) {
  return !answer.error || (raises !== null && answer.error.type === raises);
}
