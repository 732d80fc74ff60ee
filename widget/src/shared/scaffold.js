/**
 * The full Value class as the learner would run it, assembled exactly as grader/scaffold.py does:
 * text segments joined, each slot's column-0 body indented into its closure.
 */

/** Python's str.expandtabs(4) for one line. */
function expandTabs(line, size = 4) {
  let out = "";
  for (const ch of line) out += ch === "\t" ? " ".repeat(size - (out.length % size)) : ch;
  return out;
}

/** grader/scaffold.py's `indent_body`: an empty body (or only comments) gets a `pass`. */
export function indentBody(body, indent) {
  const pad = " ".repeat(indent);
  let lines = body
    .split(/\r\n|\r|\n/)
    .map((line) => expandTabs(line))
    .join("\n")
    .trimEnd();
  lines = lines ? lines.split("\n") : ["pass"];
  if (!lines.some((line) => line.trim() && !line.trimStart().startsWith("#"))) lines.push("pass");
  return lines.map((line) => (line.trim() ? pad + line : "")).join("\n");
}

/**
 * Joins the scaffold's segments (`{text}` or `{slot, indent}`) with `bodies[slot]` in each slot.
 * Returns `{ text, lines }`: `lines[slot]` is `[first, last]`, the 1-based lines the slot fills.
 */
export function assemble(segments, bodies) {
  let text = "";
  const lines = {};
  for (const piece of segments) {
    if (piece.slot) {
      const body = indentBody(bodies[piece.slot] ?? "", piece.indent);
      const first = text.split("\n").length;
      lines[piece.slot] = [first, first + body.split("\n").length - 1];
      text += `${body}\n`;
    } else {
      text += piece.text;
    }
  }
  return { text, lines };
}
