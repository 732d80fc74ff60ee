/**
 * The verify page (docs/verify.md): a certificate chosen through its file input, each exercise's
 * code in it run again by the page's Python, in the runner and judge every tab grades with
 * (python/python.js), and each verdict it earns shown beside what the file claims (verify.js
 * decides and words it). Nothing in the file but its code reaches a verdict.
 */
import { h, uid } from "../shared/dom.js";
import { crashedResult, stoppedResult } from "../exercise/page-results.js";
import { python } from "../python/python.js";
import { HERE } from "../work/panel.js";
import { WorkError } from "../work/format.js";
import { readCourseMap } from "./course.js";
import { claimsMore, headText, outcome, readCertificate, tabText, tailText, toVerify } from "./verify.js";

/** Mounts the file input and, once a file is chosen, its check, in `root` (holding the course's map). */
export function mountVerify(root) {
  const map = readCourseMap(root);
  const exercises = map.pages.flatMap((page) => page.exercises.map((exercise) => ({ ...exercise, page })));
  const id = uid("mg-verify-file");
  const input = h("input", { type: "file", id, accept: ".json,application/json", class: "mg-verify__file" });
  const shown = h("div", { class: "mg-verify__found", "aria-live": "polite" });
  input.addEventListener("change", () => input.files[0] && check(input.files[0]));
  root.replaceChildren(
    h("label", { class: "mg-verify__choose", for: id }, "Choose a certificate (.json): "),
    input,
    shown,
  );
  let [checking, runs] = [0, []];

  async function check(chosen) {
    const mine = ++checking;
    root.dataset.verifyState = "checking";
    let file;
    try {
      file = readCertificate(await chosen.text());
    } catch (error) {
      shown.replaceChildren(
        h("p", {}, error instanceof WorkError ? error.message : `The file could not be read (${error.message}).`),
      );
      root.dataset.verifyState = "unreadable";
      return;
    }
    const plan = toVerify(file, exercises);
    const items = plan.map(({ exercise }) => tabItem(exercise));
    const list = h("ul", { class: "mg-verify__tabs" }, items);
    const head = h("div", { class: "mg-verify__head" }, headView({ ...outcome(file, here(), []), id: file.course }));
    const tail = h("p", { class: "mg-verify__tail" }, `Running the code of ${plan.length} exercises…`);
    shown.replaceChildren(head, list, tail);
    // every run queued at once: the page's Python readies each next runner while one is judged
    for (const handle of runs) handle.cancel();
    runs = plan.map(({ exercise, bodies }, i) =>
      python.grade(exercise.id, bodies, { timeLimit: map.time_limit, owner: items[i], told: [] }),
    );
    const earned = [];
    for (const [i, { exercise }] of plan.entries()) {
      const { verdict, summary } = await earn(exercise, runs[i], map.time_limit);
      if (mine !== checking) return; // another file was chosen meanwhile
      earned.push([exercise, verdict]);
      showTab(items[i], outcome(file, here(), earned).tabs.at(-1), summary);
    }
    tail.replaceChildren(...tailText(outcome(file, here(), earned)).map((line) => h("span", {}, line, " ")));
    root.dataset.verifyState = "done";
  }
}

const here = () => ({ course: HERE.course, versions: HERE.exercises });

function headView(found) {
  const [who, course] = headText(found);
  const ids = h(
    "span",
    { class: "mg-verify__course" },
    ` Course ${found.id || "unnamed"} in the file; ${HERE.course} here.`,
  );
  return [h("p", { class: "mg-verify__who" }, who), h("p", {}, course, ids)];
}

function tabItem(exercise) {
  return h(
    "li",
    { class: "mg-verify__tab", "data-verify-exercise": exercise.id, "aria-busy": "true" },
    h("span", { class: "mg-progress__mark", "aria-hidden": "true" }),
    h("strong", {}, exercise.label),
    h("span", { class: "mg-verify__where" }, ` (${exercise.page.title})`),
    h("span", { class: "mg-verify__said" }, ": running…"),
  );
}

function showTab(item, tab, summary) {
  item.dataset.verdict = tab.verdict;
  item.removeAttribute("aria-busy");
  if (claimsMore(tab)) item.dataset.claimsMore = "";
  item.classList.add(`mg-verify__tab--${tab.verdict}`);
  item.querySelector(".mg-verify__said").replaceChildren(`: ${tab.verdict}. ${tabText(tab)}`);
  item.append(h("span", { class: "mg-verify__summary" }, summary));
}

/** `{verdict, summary}` of one run (python.grade's handle), as a tab's Run would show it. */
async function earn(exercise, run, timeLimit) {
  try {
    const outcome = await run.done;
    if (outcome.result) return { verdict: outcome.result.verdict, summary: outcome.result.summary };
    const shown =
      outcome.crashed !== undefined
        ? crashedResult(exercise.id, outcome.crashed)
        : stoppedResult(exercise.id, outcome.stopped, timeLimit);
    return { verdict: "error", summary: shown.summary }; // a run that gave no report: as a tab says it
  } catch (error) {
    return { verdict: "error", summary: `Python could not start: ${error.message}` };
  }
}
