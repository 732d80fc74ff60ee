/**
 * Python, as the editors need it: a small tokenizer (for colours and bracket matching) and the
 * indentation rules that editing.js applies. Pure functions, tested in Node (tests/widget/).
 */
const KEYWORDS = new Set(
  (
    "and as assert async await break class continue def del elif else except finally for from global if " +
    "import in is lambda match nonlocal not or pass raise return try while with yield"
  ).split(" "),
);
const NUMBER = /(0x[\da-f_]+|0o[0-7_]+|0b[01_]+|(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(e[+-]?\d+)?j?)/iy;
const STRING_START = /[rbuf]{0,2}("""|'''|"|')/iy;
const NAME = /[A-Za-z_]\w*/y;
const SPACE = /\s+/y;
const OPERATOR = /[-+*/%=<>!&|^~@]+/y;
export const BRACKETS = { "(": ")", "[": "]", "{": "}" }; // opening: closing
export const PARTNERS = { ...BRACKETS, ...Object.fromEntries(Object.entries(BRACKETS).map(([a, b]) => [b, a])) };
export const INDENT_UNIT = 4;
/** A line that closes the block above it, once its colon is typed. */
export const DEDENTING = /^\s*(elif|else|except|finally)\b.*:$/;
/** A statement after which the next line leaves the block. */
const BLOCK_END = /^\s*(return|pass|raise|break|continue)\b/;

/** The tokens of `text`: `[from, to, type]`, `type` one of the `tok-` class names below. */
export function tokenize(text) {
  const tokens = [];
  let string = null; // the quote of a triple-quoted string still open at the end of a line
  let at = 0;
  for (const line of text.split("\n")) {
    string = tokenizeLine(line, at, string, tokens);
    at += line.length + 1;
  }
  return tokens;
}

function tokenizeLine(line, offset, openString, tokens) {
  const push = (from, to, type) => tokens.push([offset + from, offset + to, type]);
  const match = (pattern, from) => {
    pattern.lastIndex = from;
    return pattern.exec(line);
  };
  let pos = 0;
  let after = null; // "." or "def"/"class": what names the next word
  let string = openString;
  while (pos < line.length) {
    if (string) {
      const end = stringEnd(line, pos, string);
      push(pos, end.pos, "string");
      string = end.open ? string : null;
      pos = end.pos;
      continue;
    }
    const space = match(SPACE, pos);
    if (space) {
      pos += space[0].length;
      continue;
    }
    const start = pos;
    if (line[pos] === "#") {
      push(pos, line.length, "comment");
      break;
    }
    const quote = match(STRING_START, pos);
    if (quote) {
      const end = stringEnd(line, pos + quote[0].length, quote[1]);
      push(start, end.pos, "string");
      string = end.open && quote[1].length === 3 ? quote[1] : null; // a one-line string ends with its line
      pos = end.pos;
      after = null;
      continue;
    }
    const number = match(NUMBER, pos);
    if (number?.[0].length) {
      pos += number[0].length;
      push(start, pos, "number");
      after = null;
      continue;
    }
    const word = match(NAME, pos);
    if (word) {
      pos += word[0].length;
      push(start, pos, nameType(word[0], after));
      after = word[0] === "def" || word[0] === "class" ? word[0] : null;
      continue;
    }
    const operator = match(OPERATOR, pos);
    if (operator) {
      pos += operator[0].length;
      push(start, pos, "operator");
      after = null;
      continue;
    }
    after = line[pos] === "." ? "." : null;
    push(start, ++pos, "punctuation");
  }
  return string;
}

function nameType(word, after) {
  if (after === ".") return "propertyName";
  if (after === "def" || after === "class") return "variableName tok-definition";
  if (word === "True" || word === "False") return "bool";
  if (word === "None") return "atom";
  return KEYWORDS.has(word) ? "keyword" : "variableName";
}

/** Where the string closed by `quote` ends in `line` from `pos`, and whether it is still open. */
function stringEnd(line, pos, quote) {
  while (pos < line.length) {
    if (line[pos] === "\\") pos += 2;
    else if (line.startsWith(quote, pos)) return { pos: pos + quote.length, open: false };
    else pos++;
  }
  return { pos: line.length, open: true };
}

/**
 * The indentation (in columns) of a new line after `text`, everything before the cursor.
 * Inside an open bracket, the new line lines up after the bracket, or is indented one level
 * when the bracket ends its line (PEP 8's two styles); after a colon it opens a block, and after
 * `return`, `pass` and the like it leaves one.
 */
export function indentAfter(text) {
  const { open, statement } = brackets(text);
  if (open !== null) {
    const lineStart = text.lastIndexOf("\n", open) + 1;
    const rest = text
      .slice(open + 1)
      .split("\n")[0]
      .replace(/#.*$/, "")
      .trim();
    if (rest) return columnOf(text.slice(lineStart, open + 1));
    return indentation(text.slice(lineStart)) + INDENT_UNIT;
  }
  const indent = indentation(text.slice(statement));
  const last = text.slice(text.lastIndexOf("\n") + 1);
  const code = last.replace(/#.*$/, "").trimEnd();
  if (code.endsWith(":")) return indent + INDENT_UNIT;
  const first = text.slice(statement).split("\n")[0];
  return BLOCK_END.test(first) ? Math.max(0, indent - INDENT_UNIT) : indent;
}

/**
 * Where `text`'s brackets leave it: `open`, the position of the innermost bracket still open
 * at its end (or null), and `statement`, where the last line that starts outside every bracket
 * starts (a statement continued in brackets over lines keeps its first line's indentation).
 */
function brackets(text) {
  const stack = [];
  let statement = 0;
  let line = 0;
  for (const [from, to, type] of tokenize(text)) {
    for (let at = text.indexOf("\n", line); at !== -1 && at < from; at = text.indexOf("\n", at + 1)) {
      line = at + 1;
      if (!stack.length) statement = line;
    }
    if (type !== "punctuation" || to - from !== 1) continue;
    if (text[from] in BRACKETS) stack.push(from);
    else if (text[from] in PARTNERS) stack.pop();
  }
  const lastLine = text.lastIndexOf("\n") + 1;
  if (!stack.length && lastLine > line) statement = Math.max(statement, lastLine);
  return { open: stack.length ? stack.at(-1) : null, statement };
}

/** The column at the end of `text`, tabs expanded as `indentation` counts them. */
function columnOf(text) {
  let columns = 0;
  for (const ch of text) columns += ch === "\t" ? INDENT_UNIT - (columns % INDENT_UNIT) : 1;
  return columns;
}

/** The columns of `line`'s leading white space, a tab counting as a whole unit. */
export function indentation(line) {
  let columns = 0;
  for (const ch of line) {
    if (ch === " ") columns++;
    else if (ch === "\t") columns += INDENT_UNIT - (columns % INDENT_UNIT);
    else break;
  }
  return columns;
}
