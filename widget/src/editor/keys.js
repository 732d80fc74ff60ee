/** Keyboard names as this learner's platform writes them. */
import { h } from "../shared/dom.js";

const MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
export const MOD = MAC ? "⌘" : "Ctrl";

/** The key that runs the test, as CodeMirror binds it, as ARIA names it, and as a keydown
 * event carries it: every widget reads it here. */
export const RUN_KEY = {
  binding: "Mod-Enter",
  shortcut: MAC ? "Meta+Enter" : "Control+Enter",
  pressed: (event) => event.key === "Enter" && (MAC ? event.metaKey : event.ctrlKey),
};

/** `kbd("Ctrl", "Enter")` -> <kbd>Ctrl</kbd>+<kbd>Enter</kbd> */
export function kbd(...keys) {
  return keys.flatMap((key, i) => [i ? "+" : "", h("kbd", {}, key)]);
}

/**
 * How keyboard users run the test and leave the editor (Tab indents inside it). Shown only
 * where there is a keyboard to speak of (widget.css hides it on touch screens).
 */
export function editorHelp() {
  return h(
    "p",
    { class: "mg-help" },
    kbd(MOD, "Enter"),
    " runs the test. ",
    h("kbd", {}, "Tab"),
    " indents; to leave the editor press ",
    h("kbd", {}, "Esc"),
    " and then ",
    h("kbd", {}, "Tab"),
    ", or press ",
    MAC ? kbd("Shift", "Alt", "M") : kbd("Ctrl", "M"),
    " and Tab moves focus until you press it again.",
  );
}
