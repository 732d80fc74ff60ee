/**
 * The Value class as the learner's code makes it, assembled exactly as runner/assembly.py does
 * (tests/test_js_parity.py holds the two to each other, through grader/scaffold.py, which hands
 * it the design's segments): the text segments joined, each
 * slot's column-0 body indented into place. Also the two rules both sides share: how a text
 * splits into lines, and when a body is still the starter code. Pure functions.
 */

/** Python's tokenizer ends a line at \r\n, \r or \n, and nowhere else. */
export function lines(text) {
  return text.split(/\r\n|\r|\n/);
}

// the white space both Python and JavaScript agree on (each has its own idea of the rest)
const strip = (text) => text.replace(/^[ \t\f\v\r\n]+|[ \t\f\v\r\n]+$/g, "");

/** True when `body` holds code: a line that is not blank, a comment or `pass`. */
export function hasCode(body) {
  return lines(body).some((line) => {
    const code = strip(line);
    return code && !code.startsWith("#") && code !== "pass";
  });
}

/** True when the learner has not changed the starter code, or wrote no code at all. */
export function isStub(body, stub) {
  return !hasCode(body) || strip(body) === strip(stub);
}

/** Python's str.expandtabs(4) for one line (a column per code point, as Python counts). */
function expandTabs(line, size = 4) {
  let out = "";
  let column = 0;
  for (const ch of line) {
    const text = ch === "\t" ? " ".repeat(size - (column % size)) : ch;
    out += text;
    column += ch === "\t" ? text.length : 1;
  }
  return out;
}

/** True when `body` holds a line that is not blank or a comment (`pass` counts). */
function hasStatement(body) {
  return lines(body).some((line) => strip(line) && !strip(line).startsWith("#"));
}

/** runner/assembly.py's `indent_body`: a body of blanks and comments gets a `pass`. */
export function indentBody(body, indent, expression = false) {
  let found = lines(body.replace(/[ \t\f\v\r\n]+$/, "")).map((line) => expandTabs(line));
  if (found.length === 1 && found[0] === "") found = [];
  if (!expression && !hasStatement(body)) found.push("pass");
  return found.map((line) => (strip(line) ? " ".repeat(indent) + line : "")).join("\n");
}

/**
 * Joins a design's segments (`{text}` or `{slot, indent}`) with `bodies[slot]` in each slot.
 * Returns `{ text, lines }`: `lines[slot]` is `[first, last]`, the 1-based lines the slot fills.
 */
export function assemble({ segments, expression }, bodies) {
  let text = "";
  const slots = {};
  for (const piece of segments) {
    if (piece.slot) {
      const body = indentBody(bodies[piece.slot] ?? "", piece.indent, expression);
      const first = lines(text).length;
      slots[piece.slot] = [first, first + Math.max(lines(body).length, 1) - 1];
      text += `${body}\n`;
    } else {
      text += piece.text;
    }
  }
  return { text, lines: slots };
}
