/**
 * Python in the editors: CodeMirror's Python language (the Lezer parser, its indentation and
 * its brackets), coloured as mkdocs-material colours its own code blocks, and the one
 * indentation rule of the course's own: after `return`, `pass` and the like, a new line
 * leaves the block.
 */
import { pythonLanguage } from "@codemirror/lang-python";
import { indentService, indentUnit, LanguageSupport, syntaxHighlighting, syntaxTree } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { tags, tagHighlighter } from "@lezer/highlight";

const INDENT_UNIT = 4;

/** The `tok-` classes that widget.css colours with mkdocs-material's code colours. */
export const highlighter = tagHighlighter([
  { tag: tags.keyword, class: "tok-keyword" },
  { tag: [tags.bool, tags.null], class: "tok-atom" }, // True, False, None: constants, as Pygments has them
  { tag: tags.string, class: "tok-string" },
  { tag: [tags.escape, tags.special(tags.string)], class: "tok-string2" },
  { tag: tags.number, class: "tok-number" },
  { tag: tags.comment, class: "tok-comment" },
  { tag: tags.operator, class: "tok-operator" },
  { tag: [tags.punctuation, tags.derefOperator], class: "tok-punctuation" }, // `.` too
  { tag: tags.variableName, class: "tok-variableName" },
  { tag: [tags.definition(tags.variableName), tags.className], class: "tok-definition" },
  { tag: tags.propertyName, class: "tok-propertyName" },
  { tag: tags.invalid, class: "tok-invalid" },
]);

const LEAVING = new Set(["ReturnStatement", "PassStatement", "RaiseStatement", "BreakStatement", "ContinueStatement"]);

/**
 * A line after a statement that ends its block (`return`, `pass`, `raise`, `break`,
 * `continue`) starts one level out from that statement; any other line is left to Python's
 * own indentation (`undefined`: the next service).
 */
const leaveTheBlock = indentService.of((context, pos) => {
  const above = context.lineAt(pos, -1);
  const code = above.text.replace(/#.*$/, "").trimEnd(); // a `#` in a string only shortens what is looked at
  if (!code || pos <= above.from) return undefined;
  let node = syntaxTree(context.state).resolveInner(above.from + code.length, -1);
  while (node && !LEAVING.has(node.name)) node = node.parent;
  if (!node || node.to < above.from + code.length) return undefined;
  return Math.max(0, context.lineIndent(node.from) - context.unit);
});

/** Python for an editor or a viewer: parsed, coloured and indented by four spaces. */
export const python = [
  new LanguageSupport(pythonLanguage),
  syntaxHighlighting(highlighter),
  indentUnit.of(" ".repeat(INDENT_UNIT)),
  EditorState.tabSize.of(INDENT_UNIT),
  leaveTheBlock,
];
