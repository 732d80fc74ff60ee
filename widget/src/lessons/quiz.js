/**
 * Quizzes: makes the forms that `course/quiz.py` renders answerable. A multiple-choice quiz
 * shows the explanation of each option the learner tries, and all of them once solved; a number
 * quiz shows a hint after a wrong answer and the explanation after a right one. The verdict is
 * announced in the form's `role="status"` element, and the state is saved like the widget's,
 * for the quiz's current version only.
 */
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";

const mounted = new WeakSet();

/** Hydrates every quiz form on the page that is not hydrated yet. */
export function mountQuizzes() {
  for (const form of document.querySelectorAll("form.mg-quiz[data-quiz]")) {
    if (mounted.has(form)) continue;
    mounted.add(form);
    const quiz = form.dataset.kind === "choice" ? choiceQuiz(form) : numberQuiz(form);
    const { quiz: id, version } = form.dataset;
    const saved = store.quiz(id);
    // answers given to an earlier version of the quiz may not fit this one
    if (saved?.version === version) quiz.restore(saved);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const state = quiz.check();
      if (state) store.setQuiz(id, { version, ...state });
    });
    form.querySelector("button[type=submit]").hidden = false;
  }
}

/**
 * An element's text as it should be read out: each KaTeX formula once, as it looks (its
 * MathML and TeX source, there for screen readers reading the page, would repeat it), and
 * whitespace collapsed.
 */
export function spokenText(el) {
  const copy = el.cloneNode(true);
  for (const math of copy.querySelectorAll(".katex")) {
    const shown = math.querySelector(".katex-html")?.textContent ?? math.textContent;
    math.replaceWith(shown.replace(/[\u200b\u200c\u200d]/g, ""));
  }
  return copy.textContent.replace(/\s+/g, " ").trim();
}

/** Shows `verdict` ("right" or "wrong") and `text`; `spoken` is read out but not shown twice. */
function announce(form, verdict, text, spoken = "") {
  const result = form.querySelector(".mg-quiz__result");
  result.dataset.state = verdict;
  result.replaceChildren(text, spoken ? h("span", { class: "mg-visually-hidden" }, ` ${spoken}`) : "");
}

function choiceQuiz(form) {
  const options = [...form.querySelectorAll(".mg-quiz__option")];
  const radio = (option) => option.querySelector("input[type=radio]");
  const isRight = (option) => radio(option).hasAttribute("data-correct");
  const why = (option) => option.querySelector(".mg-quiz__why");
  let tried = new Set();

  // a wrong option is marked as such only once the learner has picked it
  const reveal = (option) => {
    const picked = tried.has(options.indexOf(option));
    option.dataset.state = isRight(option) ? "right" : picked ? "wrong" : "other";
    why(option).hidden = false;
  };
  const solved = () => options.some((option) => isRight(option) && tried.has(options.indexOf(option)));
  const showAll = () => options.forEach(reveal);

  return {
    restore(state) {
      if (!state || !Array.isArray(state.tried)) return;
      tried = new Set(state.tried.filter((i) => Number.isInteger(i) && options[i]));
      for (const i of tried) reveal(options[i]);
      if (Number.isInteger(state.choice) && options[state.choice]) radio(options[state.choice]).checked = true;
      if (solved()) {
        showAll();
        announce(form, "right", "Solved. Every option's explanation is shown below it.");
      }
    },
    check() {
      const choice = options.findIndex((option) => radio(option).checked);
      if (choice < 0) {
        announce(form, "wrong", "Choose one of the options first.");
        return null;
      }
      const option = options[choice];
      tried.add(choice);
      reveal(option);
      const explanation = spokenText(why(option));
      if (isRight(option)) {
        showAll();
        announce(form, "right", "Correct. Each option now shows why it is right or wrong.", explanation);
      } else {
        announce(form, "wrong", "Not quite: the reason is shown under your answer. Try another.", explanation);
      }
      return { choice, tried: [...tried] };
    },
  };
}

/** A number typed in any usual way ("3", " 3.0 ", "3x", "3×", "2,5"), or NaN. */
export function parseNumber(text) {
  const cleaned = text
    .trim()
    .replace(/\s*(x|×|times)$/i, "")
    .replace(",", ".");
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

function numberQuiz(form) {
  const input = form.querySelector("input");
  const hint = form.querySelector(".mg-quiz__hint");
  const why = form.querySelector(".mg-quiz__why");
  const answer = Number(form.dataset.answer);
  const tolerance = Number(form.dataset.tolerance);
  let wrong = 0;

  const show = (right) => {
    why.hidden = !right;
    hint.hidden = right || wrong === 0;
  };

  return {
    restore(state) {
      if (!state || typeof state.value !== "string") return;
      input.value = state.value;
      wrong = Number.isInteger(state.wrong) ? state.wrong : 0;
      const right = Math.abs(parseNumber(state.value) - answer) <= tolerance;
      show(right);
      if (right) announce(form, "right", "Solved.");
    },
    check() {
      const value = parseNumber(input.value);
      if (Number.isNaN(value)) {
        announce(form, "wrong", "Please type a number, such as 2 or 0.5.");
        input.focus();
        return null;
      }
      const right = Math.abs(value - answer) <= tolerance;
      if (!right) wrong += 1;
      show(right);
      if (right) {
        announce(form, "right", "Correct.", spokenText(why));
      } else {
        announce(form, "wrong", `Not quite: ${input.value.trim()} is not it. A hint is shown below.`, spokenText(hint));
      }
      return { value: input.value, wrong };
    },
  };
}

// mkdocs-material's instant navigation swaps pages without reloading: it announces each on document$
if (window.document$?.subscribe) window.document$.subscribe(mountQuizzes);
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountQuizzes);
else mountQuizzes();
