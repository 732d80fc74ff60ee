/**
 * Python for the editors: highlighting and indentation from a small line tokenizer. The bodies
 * learners write are a few lines long; @codemirror/lang-python's full parser would add ~22 KB
 * (brotli) to every page for what this does in a few hundred bytes.
 */
import { StreamLanguage } from "@codemirror/language";

const KEYWORDS = new Set(
  ("and as assert async await break class continue def del elif else except finally for from global if " +
    "import in is lambda match nonlocal not or pass raise return try while with yield").split(" "),
);
const DEDENTING = /^\s*(elif|else|except|finally)\b/;
const NUMBER = /^(0x[\da-f_]+|0o[0-7_]+|0b[01_]+|(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(e[+-]?\d+)?j?)/i;
const STRING_START = /^[rbuf]{0,2}("""|'''|"|')/i;

/** State: the open triple-quoted string, and the last code line's indentation and colon. */
const python = {
  name: "python",
  startState: () => ({ string: null, indent: 0, colon: false, after: null }),
  copyState: (state) => ({ ...state }),

  token(stream, state) {
    if (stream.sol() && !state.string) {
      state.indent = stream.indentation();
      state.colon = false;
    }
    if (state.string) return stringBody(stream, state);
    if (stream.eatSpace()) return null;
    const after = state.after;
    state.after = null;
    if (stream.match(/^#.*/)) return "comment";
    state.colon = false;
    const quote = stream.match(STRING_START);
    if (quote) {
      state.string = quote[1];
      return stringBody(stream, state);
    }
    if (stream.match(NUMBER)) return "number";
    const word = stream.match(/^[A-Za-z_]\w*/);
    if (word) return name(word[0], after, state);
    const ch = stream.next();
    if (ch === ":") state.colon = true;
    if (ch === ".") state.after = ".";
    if ("()[]{},.:;".includes(ch)) return "punctuation";
    stream.eatWhile(/[-+*/%=<>!&|^~@]/);
    return "operator";
  },

  indent(state, textAfter, context) {
    if (state.string) return null;
    const indent = state.indent + (state.colon ? context.unit : 0);
    return DEDENTING.test(textAfter) ? Math.max(0, indent - context.unit) : indent;
  },

  languageData: {
    commentTokens: { line: "#" },
    indentOnInput: /^\s*(elif|else|except|finally)\b.*:$/,
  },
};

function name(word, after, state) {
  if (after === ".") return "propertyName";
  if (after === "def" || after === "class") return "variableName.definition";
  if (word === "True" || word === "False") return "bool";
  if (word === "None") return "atom";
  if (KEYWORDS.has(word)) {
    state.after = word;
    return "keyword";
  }
  return "variableName";
}

function stringBody(stream, state) {
  const end = state.string;
  while (!stream.eol()) {
    if (stream.eat("\\")) stream.next();
    else if (stream.match(end)) {
      state.string = null;
      return "string";
    } else stream.next();
  }
  if (end.length === 1) state.string = null; // a one-line string ends with its line
  return "string";
}

export const pythonLanguage = StreamLanguage.define(python);
