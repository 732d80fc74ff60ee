/**
 * Shows a grader result: the verdict (announced by a live region), the table of checked values,
 * the error at the learner's own line, and what their code printed, always as text.
 */
import { h } from "./dom.js";

const TITLES = { pass: "Passed", fail: "Not yet", error: "Error", stopped: "Stopped" };

/** The result area of one panel: `{el, running(waiting), show(result), failed(message)}`. */
export function createResult() {
  // the live region: verdict, summary and the shared explanation are read out; the table is not
  const verdict = h("div", { class: "mg-verdict", role: "status" });
  const body = h("div", { class: "mg-result__body" });
  const el = h("section", { class: "mg-result", "aria-label": "Test result" }, verdict, body);

  function setVerdict(kind, title, summary, explanation) {
    el.dataset.state = kind;
    const parts = [
      h(
        "p",
        { class: "mg-verdict__line" },
        h("span", { class: "mg-verdict__icon", "aria-hidden": "true" }),
        h("strong", { class: "mg-verdict__title" }, title),
        summary && h("span", { class: "mg-verdict__summary" }, withCode(summary)),
      ),
      explanation && h("p", { class: "mg-verdict__why" }, withCode(explanation)),
    ];
    verdict.replaceChildren(...parts.filter(Boolean));
  }

  return {
    el,
    running(waiting) {
      el.removeAttribute("data-verdict");
      el.setAttribute("aria-busy", "true");
      setVerdict(
        "running",
        waiting ? "Waiting for Python" : "Running",
        waiting ? "Your test runs as soon as Python has loaded." : "",
      );
      body.replaceChildren();
    },
    show(result) {
      el.removeAttribute("aria-busy");
      setVerdict(result.verdict, TITLES[result.verdict] ?? result.verdict, result.summary, result.diagnosis);
      const parts = [
        result.error && errorBlock(result.error, result.summary),
        result.checks?.length && checksTable(result.checks),
        result.stdout && outputBlock(result.stdout, result.stdout_truncated),
      ];
      body.replaceChildren(...parts.filter(Boolean));
      el.dataset.verdict = result.verdict;
    },
    failed(message) {
      el.removeAttribute("aria-busy");
      setVerdict("error", "Python is not available", message);
      body.replaceChildren();
      el.dataset.verdict = "error";
    },
  };
}

/** Text with `backticked` spans as <code>, built as DOM text: never parsed as HTML. */
function withCode(text) {
  return text.split("`").map((part, i) => (i % 2 ? h("code", {}, part) : part));
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
    more && h("details", { class: "mg-details" }, h("summary", {}, "Details"), h("pre", {}, error.text)),
  ].filter(Boolean);
  return parts.length ? h("div", { class: "mg-error" }, parts) : null;
}

/** One row group per graph built, one row per checked value; a failed row gets its sentence. */
function checksTable(checks) {
  const groups = new Map();
  for (const check of checks) {
    const key = `${check.built}\n${check.given}`;
    groups.set(key, [...(groups.get(key) ?? []), check]);
  }
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
      [...groups.values()].map((group) =>
        h(
          "tbody",
          {},
          h(
            "tr",
            { class: "mg-checks__graph" },
            h(
              "th",
              { colspan: "4", scope: "rowgroup" },
              h("code", {}, group[0].built.split("\n").join("; ")),
              h("span", { class: "mg-checks__given" }, group[0].given),
            ),
          ),
          group.map(checkRows),
        ),
      ),
    ),
  );
}

function checkRows(check) {
  const state = check.passed ? "passed" : "failed";
  const row = h(
    "tr",
    { class: `mg-check is-${state}` },
    h("th", { scope: "row", "data-label": "Value" }, h("code", {}, check.value)),
    h("td", { "data-label": "Got", class: "mg-num" }, check.got_text ?? String(check.got)),
    h("td", { "data-label": "Expected", class: "mg-num" }, check.expected_text ?? String(check.expected)),
    h(
      "td",
      { "data-label": "Result", class: "mg-check__state" },
      h("span", { class: "mg-check__icon", "aria-hidden": "true" }),
      h("span", { class: "mg-check__word" }, state),
    ),
  );
  if (check.passed || !check.why) return row;
  return [row, h("tr", { class: "mg-check__why" }, h("td", { colspan: "4" }, withCode(check.why)))];
}

function outputBlock(stdout, truncated) {
  const lines = stdout.replace(/\n$/, "").split("\n").length;
  return h(
    "details",
    { class: "mg-details mg-output" },
    h("summary", {}, `What your code printed (${lines} ${lines === 1 ? "line" : "lines"})`),
    h("pre", {}, stdout),
    truncated ? h("p", { class: "mg-note" }, "The output was long, so only its beginning is shown.") : null,
  );
}
