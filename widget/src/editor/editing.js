/**
 * What an editable editor does beyond typing and moving the cursor, which the browser and
 * CodeMirror's view already handle: CodeMirror's own commands, bound to the keys the course
 * chose. Python's indentation (Enter, a dedent when `else:` and its kind are typed) comes from
 * the language (python.js); Tab indents rather than leaving the editor, Ctrl+M switches that.
 */
import {
  cursorLineBoundaryBackward,
  deleteCharBackward,
  deleteCharForward,
  deleteGroupBackward,
  deleteGroupForward,
  history,
  historyKeymap,
  indentLess,
  indentMore,
  insertNewlineAndIndent,
  selectAll,
  selectLineBoundaryBackward,
  toggleComment,
  toggleTabFocusMode,
} from "@codemirror/commands";
import { indentOnInput } from "@codemirror/language";
import { keymap } from "@codemirror/view";

/** The course's keys (CodeMirror's `{key, run, shift}` bindings), undo and redo aside. */
export const keys = [
  // Tab indents; Ctrl+M (Shift+Alt+M on a Mac) makes it move focus instead, and back
  { key: "Ctrl-m", mac: "Shift-Alt-m", run: toggleTabFocusMode },
  // Home goes to the code first, then to the line's start
  { key: "Home", run: cursorLineBoundaryBackward, shift: selectLineBoundaryBackward, preventDefault: true },
  { key: "Enter", run: insertNewlineAndIndent },
  { key: "Tab", run: indentMore, shift: indentLess },
  { key: "Mod-]", run: indentMore },
  { key: "Mod-[", run: indentLess },
  // in the indentation, Backspace goes back to the previous indent stop
  { key: "Backspace", run: deleteCharBackward, shift: deleteCharBackward },
  { key: "Delete", run: deleteCharForward },
  { key: "Mod-Backspace", mac: "Alt-Backspace", run: deleteGroupBackward },
  { key: "Mod-Delete", mac: "Alt-Delete", run: deleteGroupForward },
  { key: "Mod-/", run: toggleComment },
  { key: "Mod-a", run: selectAll },
];

/**
 * Everything above, for an editable view. Tab indents; Esc then Tab leaves the editor, and so
 * does Tab once Ctrl+M has made it move focus (CodeMirror's tab-focus mode).
 */
export const editing = [history(), indentOnInput(), keymap.of([...historyKeymap, ...keys])];
