/**
 * Shows a result (grader/result.py): the verdict (announced by a live region) and why, links to
 * the tabs of the code at fault, the table of checked values, the error at the learner's own
 * line, and what their code printed, always as text.
 */
import { h } from "../shared/dom.js";
import { graphButton } from "./graph-view.js";
import { loadingProgress } from "./status.js";

const TITLES = { pass: "Passed", fail: "Not yet", error: "Error", stopped: "Stopped" };

/**
 * The result area of one panel: `{el, running(waiting), show(result), clear(), failed(message)}`.
 * `goTo(op)` opens the tab of an op's own exercise, or is null where the widget has none;
 * `graphs` names the exercise's drawings of its checks (graph-view.js).
 */
export function createResult({ goTo, graphs }) {
  // the live region: verdict, summary and the diagnosis are read out; the table is not
  const verdict = h("div", { class: "mg-verdict", role: "status" });
  const body = h("div", { class: "mg-result__body" });
  const el = h("section", { class: "mg-result", "aria-label": "Test result" }, verdict, body);

  function setVerdict(kind, title, summary, explanation) {
    el.dataset.state = kind;
    verdict.replaceChildren(...verdictLines(title, summary, explanation));
  }

  let progress = null; // Python's progress, shown here while a run waits for it
  const clear = () => {
    progress?.remove();
    progress = null;
  };

  return {
    el,
    running(waiting) {
      el.removeAttribute("data-verdict");
      setVerdict(
        "running",
        waiting ? "Waiting for Python" : "Running",
        waiting ? "Your test runs as soon as Python has loaded." : "",
      );
      clear();
      if (waiting) progress = loadingProgress();
      body.replaceChildren(progress?.el ?? "");
    },
    show(result) {
      clear();
      setVerdict(result.verdict, TITLES[result.verdict] ?? result.verdict, result.summary, result.diagnosis);
      body.replaceChildren(...resultParts(result, goTo, graphs));
      el.dataset.verdict = result.verdict;
    },
    /** Back to no result: the code it was about is gone (Reset). */
    clear() {
      clear();
      verdict.replaceChildren();
      body.replaceChildren();
      delete el.dataset.state;
      delete el.dataset.verdict;
    },
    failed(message) {
      clear();
      setVerdict("error", "Python is not available", message);
      body.replaceChildren();
      el.dataset.verdict = "error";
    },
  };
}

/** The verdict's title with its summary, and the explanation under them if there is one. */
function verdictLines(title, summary, explanation) {
  return [
    h(
      "p",
      { class: "mg-verdict__line" },
      h("span", { class: "mg-verdict__icon", "aria-hidden": "true" }),
      h("strong", { class: "mg-verdict__title" }, title),
      summary && h("span", { class: "mg-verdict__summary" }, withCode(summary)),
    ),
    explanation ? h("p", { class: "mg-verdict__why" }, withCode(explanation)) : "",
  ];
}

/** What a result holds under its verdict, each part only when it has one: the tabs at fault,
 * the error, the table of checks and what the code printed. */
function resultParts(result, goTo, graphs) {
  const parts = [
    culpritLinks(result.culprits, goTo),
    result.error && errorBlock(result.error, result.summary),
    result.checks?.length && checksTable(result, graphs),
    result.stdout && outputBlock(result),
  ];
  return parts.filter(Boolean);
}

/** Text with `backticked` spans as <code>, built as DOM text: never parsed as HTML. */
export function withCode(text) {
  return text.split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part));
}

/** Buttons that open the tab of each op whose code the grader found at fault, when it has one. */
function culpritLinks(culprits, goTo) {
  const links = (culprits ?? []).map((culprit) => ({ culprit, open: goTo?.(culprit.op) })).filter(({ open }) => open);
  if (!links.length) return null;
  return h(
    "p",
    { class: "mg-culprits" },
    links.map(({ culprit, open }) =>
      h(
        "button",
        { type: "button", class: "mg-link", onclick: open },
        "Open the ",
        h("code", {}, culprit.label),
        " tab",
      ),
    ),
  );
}

/** The learner's line that failed, under the summary that already names it; more only if the grader has more. */
function errorBlock(error, summary) {
  const shown = `${summary}\n${error.source_line ?? ""}`;
  const more = (error.text ?? "").split("\n").some((line) => line.trim() && !shown.includes(line.trim()));
  const parts = [
    error.source_line &&
      h(
        "pre",
        { class: "mg-error__line" },
        h(
          "span",
          { class: "mg-error__lineno" },
          h("span", { class: "mg-visually-hidden" }, "line "),
          String(error.line ?? ""),
        ),
        error.source_line,
      ),
    more && h("details", { class: "mg-details" }, h("summary", {}, "Details"), h("pre", { tabindex: "0" }, error.text)),
  ].filter(Boolean);
  return parts.length ? h("div", { class: "mg-error" }, parts) : null;
}

/** One row group per check, one row per checked value; a failed row gets its sentence. */
function checksTable(result, graphs) {
  return h(
    "div",
    { class: "mg-checks-wrap" },
    h(
      "table",
      { class: "mg-checks" },
      h("caption", { class: "mg-visually-hidden" }, "Every value the test checked"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Value", "Got", "Expected", "Result"].map((name) => h("th", { scope: "col" }, name)),
        ),
      ),
      result.checks.map((check, index) =>
        h(
          "tbody",
          { "data-check": String(index) },
          h(
            "tr",
            { class: "mg-checks__graph" },
            h(
              "th",
              { colspan: "4", scope: "rowgroup" },
              h("code", {}, statements(check.built)),
              h("span", { class: "mg-checks__given" }, check.given),
              check.complete ? "" : h("span", { class: "mg-checks__stopped" }, " stopped here: your code raised"),
              graphButton(graphs, result, index),
            ),
          ),
          check.rows.map(row),
        ),
      ),
    ),
  );
}

/** A check's code on one line, its statements apart: `a = 1; b = a + a`, wrapped between them. */
function statements(built) {
  return built.split("\n").flatMap((line, i) => [i ? "; " : "", h("span", { class: "mg-checks__statement" }, line)]);
}

function row(check) {
  const state = check.passed ? "passed" : "failed";
  const tr = h(
    "tr",
    { class: `mg-check is-${state}` },
    h("th", { scope: "row", "data-label": "Value" }, h("code", {}, check.value)),
    h("td", { "data-label": "Got", class: "mg-num" }, check.got_text),
    h("td", { "data-label": "Expected", class: "mg-num" }, check.expected_text),
    h(
      "td",
      { "data-label": "Result", class: "mg-check__state" },
      h("span", { class: "mg-check__icon", "aria-hidden": "true" }),
      h("span", { class: "mg-check__word" }, state),
    ),
  );
  if (check.passed || !check.why) return tr;
  return [tr, h("tr", { class: "mg-check__why" }, h("td", { colspan: "4" }, withCode(check.why)))];
}

/** What the code printed: as many lines as it printed (runner/sandbox.py counts them all), of
 * which a long output shows the beginning. */
function outputBlock({ stdout, stdout_truncated: truncated, stdout_lines: printed }) {
  const lines = `${printed.toLocaleString("en")} ${printed === 1 ? "line" : "lines"}`;
  return h(
    "details",
    { class: "mg-details mg-output" },
    h("summary", {}, `What your code printed (${lines})`),
    h("pre", { tabindex: "0" }, stdout),
    truncated
      ? h(
          "p",
          { class: "mg-note" },
          `The output was long, so only its beginning is shown: ${shownLines(stdout)} of its ${lines}.`,
        )
      : null,
  );
}

const shownLines = (stdout) => stdout.replace(/\n$/, "").split("\n").length.toLocaleString("en");
