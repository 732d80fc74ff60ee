/**
 * Python for the editors: a small tokenizer, the highlighting and bracket matching built on it,
 * and the indentation rules that editing.js applies. The bodies learners write are a few lines
 * long, so every change tokenizes the whole text again: CodeMirror's language packages would
 * add ~20 KB (brotli) to every page for what this does in a few hundred bytes.
 */
import { StateField } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin } from "@codemirror/view";

const KEYWORDS = new Set(
  ("and as assert async await break class continue def del elif else except finally for from global if " +
    "import in is lambda match nonlocal not or pass raise return try while with yield").split(" "),
);
const NUMBER = /(0x[\da-f_]+|0o[0-7_]+|0b[01_]+|(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(e[+-]?\d+)?j?)/iy;
const STRING_START = /[rbuf]{0,2}("""|'''|"|')/iy;
const NAME = /[A-Za-z_]\w*/y;
const SPACE = /\s+/y;
const OPERATOR = /[-+*/%=<>!&|^~@]+/y;
const BRACKETS = { "(": ")", "[": "]", "{": "}" }; // opening: closing
const PARTNERS = { ...BRACKETS, ...Object.fromEntries(Object.entries(BRACKETS).map(([a, b]) => [b, a])) };
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
    if (number && number[0].length) {
      push(start, (pos += number[0].length), "number");
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
      push(start, (pos += operator[0].length), "operator");
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

/** The indentation (in columns) of a line that follows `text`, the code before a new line. */
export function indentAfter(text) {
  const indent = indentation(text);
  const code = text.replace(/#.*$/, "").trimEnd();
  if (code.endsWith(":")) return indent + INDENT_UNIT;
  return BLOCK_END.test(code) ? Math.max(0, indent - INDENT_UNIT) : indent;
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

/** The text's colours and its brackets (strings and comments aside), tokenized once per edit. */
const syntax = StateField.define({
  create: (state) => analyse(state.doc.toString()),
  update: (value, tr) => (tr.docChanged ? analyse(tr.state.doc.toString()) : value),
  provide: (field) => EditorView.decorations.from(field, (value) => value.colours),
});

function analyse(text) {
  const tokens = tokenize(text);
  const isBracket = ([from, to, type]) => type === "punctuation" && to - from === 1 && text[from] in PARTNERS;
  return {
    colours: Decoration.set(tokens.map(([from, to, type]) => mark(type).range(from, to))),
    brackets: tokens.filter(isBracket).map(([from]) => from),
  };
}

const marks = new Map();
function mark(type) {
  if (!marks.has(type)) marks.set(type, Decoration.mark({ class: `tok-${type}` }));
  return marks.get(type);
}

/** Colours the code with the `tok-` classes that widget.css styles. */
export const highlighting = syntax;

/** Marks the bracket next to the cursor and its partner. */
export const bracketMatching = [
  syntax,
  ViewPlugin.fromClass(
    class {
      constructor(view) {
        this.decorations = matchedBrackets(view.state);
      }
      update(update) {
        if (update.docChanged || update.selectionSet) this.decorations = matchedBrackets(update.state);
      }
    },
    { decorations: (plugin) => plugin.decorations },
  ),
];

const MATCHED = Decoration.mark({ class: "cm-matchingBracket" });
const UNMATCHED = Decoration.mark({ class: "cm-nonmatchingBracket" });

function matchedBrackets(state) {
  const { head, empty } = state.selection.main;
  if (!empty) return Decoration.none;
  const { brackets } = state.field(syntax);
  const text = state.doc;
  const char = (at) => text.sliceString(at, at + 1);
  // the bracket after the cursor first, then the one before it
  const at = brackets.find((from) => from === head) ?? brackets.find((from) => from === head - 1);
  if (at === undefined) return Decoration.none;
  const partner = partnerOf(char, brackets, at);
  if (partner === null) return Decoration.set([UNMATCHED.range(at, at + 1)]);
  const pair = [at, partner].sort((a, b) => a - b);
  const look = char(partner) === PARTNERS[char(at)] ? MATCHED : UNMATCHED;
  return Decoration.set(pair.map((from) => look.range(from, from + 1)));
}

/** The position of the bracket that `at` opens or closes, or null. */
function partnerOf(char, brackets, at) {
  const forward = char(at) in BRACKETS;
  const order = forward ? brackets.filter((from) => from > at) : brackets.filter((from) => from < at).reverse();
  let depth = 0;
  for (const from of order) {
    const opens = char(from) in BRACKETS;
    if (opens === forward) depth++;
    else if (depth-- === 0) return from;
  }
  return null;
}
