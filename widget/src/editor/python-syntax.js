/**
 * Python's colours and bracket matching in the editors, built on the course's own tokenizer
 * (python-tokens.js). The bodies learners write are a few lines long, so every change
 * tokenizes the whole text again: CodeMirror's language packages would add ~20 KB (brotli) to
 * every page for what this does in a few hundred bytes.
 */
import { StateField } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin } from "@codemirror/view";
import { BRACKETS, PARTNERS, tokenize } from "./python-tokens.js";

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
