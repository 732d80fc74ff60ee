/**
 * One lesson block on the page (`[data-cell]`, built by course/lessons.py): its code, shown as
 * the build highlighted it until the learner focuses or clicks it, then the course's editor
 * (made then: thirteen editors at once cost a reader's main thread); its Run, Stop and Reset
 * buttons, the mark that it differs from the page's code, a line saying what happened, and its
 * output (`[data-cell-output]`, said aloud when it changes). Knows nothing of Python: cells.js
 * drives it.
 */
import { createEditor, markLines, setText } from "../editor/editor.js";
import { RUN_KEY } from "../editor/keys.js";
import { h } from "../shared/dom.js";

export class CellView {
  #code; // the build's highlighted block: shown until the editor is made
  #editor = null;
  #text;
  #onEdit;
  #onRun;
  #output;
  #note;
  #mark;
  #offerEl = null; // the offer of an earlier edit, while it is shown

  /** `text`: the code to show (the learner's saved edit, or the page's); `earlier()`: the edit
   * the learner made before the course changed the block, to offer back, or null (asked again at
   * the click: another tab may have replaced it); `onEdit(text)` on every edit, `onRun()` on Run
   * or Ctrl/Cmd+Enter, `onStop()`, `onReset()`, `onFocus()` once the learner first reaches the
   * code. */
  constructor(root, { index, text, edited, earlier, onEdit, onRun, onStop, onReset, onFocus }) {
    this.root = root;
    this.index = index;
    this.#text = text;
    this.#onEdit = onEdit;
    this.#onRun = onRun;
    this.#output = root.querySelector("[data-cell-output]");
    this.#output.setAttribute("aria-live", "polite");
    this.#code = [...root.children].find((child) => child !== this.#output);
    const button = (label, click, attrs = {}) =>
      h("button", { type: "button", class: "mg-button", onclick: click, ...attrs }, label);
    this.run = button("Run", () => this.#onRun(), {
      class: "mg-button mg-button--primary",
      "aria-keyshortcuts": RUN_KEY.shortcut,
      title: `Run this block (${RUN_KEY.shortcut.replace("+", " + ")}), after the blocks above it`,
    });
    this.stop = button("Stop", onStop, { hidden: true });
    this.reset = button("Reset", onReset, { title: "Put back the page's code of this block" });
    this.#mark = h("span", { class: "mg-cell__edited", hidden: true }, "edited");
    this.#note = h("p", { class: "mg-cell__note", role: "status" });
    const bar = h("div", { class: "mg-widget mg-cell__bar" }, this.run, this.stop, this.reset, this.#mark, this.#note);
    this.#code.after(bar);
    // the build's block stands in for the editor until a click or Enter asks for it; Tab passes
    // it by (inside an editor, Tab indents)
    this.#code.addEventListener("focusin", onFocus);
    // a click, not a touch's start: a finger scrolling the page over a block leaves it be
    this.#code.addEventListener("click", (event) => {
      onFocus();
      this.#makeEditor(event);
    });
    this.#code.addEventListener("keydown", (event) => {
      if (RUN_KEY.pressed(event)) this.#onRun();
      else if (event.key === "Enter") this.#makeEditor(event);
      else return;
      event.preventDefault();
    });
    this.#code.title = "Click, or press Enter, to edit this code";
    // a tab stop of its own: the theme makes a code block focusable only while it overflows
    Object.assign(this.#code, { tabIndex: 0 });
    this.#code.setAttribute("role", "group");
    this.#code.setAttribute("aria-label", `Code of block ${index + 1}: press Enter to edit it`);
    if (edited) this.#makeEditor(null);
    this.setEdited(edited);
    const offered = earlier?.();
    if (offered) bar.after(this.#offer(offered, earlier));
  }

  /** The offer of the learner's edit of the block as it was before the course changed it, the
   * edit shown on request; cells.js drops it once they put it back or edit the block. */
  #offer(text, earlier) {
    const putBack = h(
      "button",
      { type: "button", class: "mg-button", "aria-label": `Put back my edit of block ${this.index + 1}` },
      "Put back my edit",
    );
    const offer = h(
      "div",
      { class: "mg-cell__earlier", "data-cell-earlier": "" },
      h("p", {}, "The course changed this block since you edited it: it shows the new code. ", putBack),
      h("details", {}, h("summary", {}, "Your earlier edit"), h("pre", {}, h("code", {}, text))),
      h("p", {}, "Editing the block instead replaces your earlier edit."),
    );
    this.#offerEl = offer;
    putBack.addEventListener("click", () => {
      const now = earlier(); // what is saved now: another tab may have replaced it
      if (now === null) return this.dropOffer();
      this.#makeEditor(null);
      this.setText(now); // an edit like any: saved, marked, and the offer dropped
      this.#editor.focus();
    });
    return offer;
  }

  /** Removes the offer of an earlier edit, if one is shown. */
  dropOffer() {
    this.#offerEl?.remove();
    this.#offerEl = null;
  }

  get text() {
    return this.#text;
  }

  /** Shows `text` (Reset), in the editor if there is one. */
  setText(text) {
    this.#text = text;
    if (this.#editor) setText(this.#editor, text);
  }

  setEdited(edited) {
    this.#mark.hidden = !edited;
    this.root.toggleAttribute("data-cell-edited", edited);
  }

  /** `data-cell-state`, and the buttons that go with it. */
  setState(state) {
    this.root.dataset.cellState = state;
    this.stop.hidden = state !== "running";
    this.run.setAttribute("aria-disabled", String(state === "running"));
  }

  /** The line saying what happened (empty hides it). */
  say(words) {
    this.#note.textContent = words;
    this.#note.hidden = !words;
  }

  /** Shows what a run printed (`text`), the error's line marked in the editor if there is one. */
  show(text, errorLine = null) {
    let code = this.#output.querySelector("code");
    if (!code) {
      this.#output.classList.add("highlight");
      code = h("code", { tabindex: "0" });
      this.#output.replaceChildren(h("span", { class: "filename" }, "Output"), h("pre", {}, code));
    }
    code.textContent = text.endsWith("\n") || !text ? text : `${text}\n`;
    this.#output.hidden = !text;
    if (this.#editor) markLines(this.#editor, errorLine ? [{ line: errorLine, className: "mg-line-error" }] : []);
  }

  /** The editor, made in the build's block's place at its first use; a click lands where it was. */
  #makeEditor(event) {
    if (this.#editor) return;
    const parent = h("div", { class: "mg-widget mg-editor mg-cell__editor" });
    this.#code.after(parent);
    this.#code.hidden = true;
    this.#editor = createEditor({
      parent,
      doc: this.#text,
      label: `Code of block ${this.index + 1}`,
      onChange: (text) => {
        this.#text = text;
        this.#onEdit(text);
      },
      onRun: () => this.#onRun(),
    });
    if (!event) return; // a saved edit, shown as the page opens: no focus taken
    this.#editor.focus();
    const at = event.clientX === undefined ? null : this.#editor.posAtCoords({ x: event.clientX, y: event.clientY });
    if (at !== null) this.#editor.dispatch({ selection: { anchor: at } });
  }
}
