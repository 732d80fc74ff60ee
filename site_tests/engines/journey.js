// What a learner does on the course's pages, as functions any browser engine can run: the
// cross-engine tests (test_browser_engines.py) inject this file into the page and call
// `courseJourney.<name>(...)` through WebDriver BiDi (Firefox) or classic WebDriver (WebKit).
// Everything goes through the widget's testing contract: tabs by their labels, the visible
// panel, its editor, its "Run test" and "Stop" buttons, and `data-verdict` on its result.
// Every function is async and returns plain JSON.
(() => {
  const TIMEOUT_MS = 60_000;
  const TRAINING_TIMEOUT_MS = 110_000;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const squash = (text) => text.replace(/\s+/g, " ").trim();

  async function until(find, what, timeoutMs = TIMEOUT_MS) {
    const started = Date.now();
    for (;;) {
      const found = find();
      if (found) return found;
      if (Date.now() - started > timeoutMs)
        throw new Error(`timed out waiting for ${typeof what === "function" ? what() : what}`);
      await sleep(50);
    }
  }

  const widget = () => document.querySelector("[data-exercise-widget]");
  const tabs = () => [...widget().querySelectorAll("[role=tab]")];
  const label = (tab) => tab.querySelector(".mg-tab__label").textContent;
  const tab = (name) => tabs().find((t) => label(t) === name);
  const panel = () => [...widget().querySelectorAll("[role=tabpanel]")].find((p) => !p.hidden);
  // a button by its name as a screen reader hears it: its text without aria-hidden icons
  const named = (el) =>
    squash(
      [...el.childNodes]
        .filter((n) => !n.getAttribute?.("aria-hidden"))
        .map((n) => n.textContent)
        .join(""),
    );
  const button = (name) => [...panel().querySelectorAll("button")].find((b) => named(b) === name && !b.hidden);

  async function open(name) {
    const wanted = await until(() => tab(name), `the tab ${name}`);
    wanted.click();
    await until(() => wanted.getAttribute("aria-selected") === "true", `${name} selected`);
  }

  /** Replaces the editor's text as a paste would, in every engine (execCommand's insertText). */
  async function write(code) {
    const editor = await until(() => panel().querySelector('.cm-content[contenteditable="true"]'), "the editor");
    editor.focus();
    document.execCommand("selectAll");
    document.execCommand("insertText", false, code);
    await until(() => editorText() === code, "the editor to hold the code");
  }

  const editorText = () =>
    [...panel().querySelectorAll('.cm-content[contenteditable="true"] .cm-line')].map((l) => l.textContent).join("\n");

  async function verdict() {
    const result = await until(() => panel().querySelector("[data-verdict]"), "a verdict");
    return { verdict: result.dataset.verdict, text: squash(result.textContent) };
  }

  window.courseJourney = {
    async ready() {
      await until(() => widget() && tabs().length, "the exercise widget");
      return tabs().map(label);
    },
    async solve(name, code) {
      await open(name);
      await write(code);
      button("Run test").click();
      return verdict();
    },
    /** Starts a run and returns once it is under way (its Stop button shows). */
    async start(name, code) {
      await open(name);
      await write(code);
      const status = widget().querySelector(".mg-status");
      await until(() => status.dataset.state === "ready", "Python to be ready");
      button("Run test").click();
      await until(() => button("Stop"), "the Stop button");
      return true;
    },
    /** Presses "Run test" on a tab without an editor (the diamond). */
    async run(name) {
      await open(name);
      button("Run test").click();
      return verdict();
    },
    async stop() {
      button("Stop").click();
      return verdict();
    },
    /** "Check my whole engine" on the diamond tab, after writing `mul` on the `__mul__` tab. */
    async checkEngine(mul) {
      await open("__mul__");
      await write(mul);
      await open("diamond");
      const section = panel().querySelector("[data-engine-check]");
      [...section.querySelectorAll("button")].find((b) => named(b) === "Check my whole engine").click();
      const answered = () => !["idle", "running"].includes(section.dataset.engineCheck);
      await until(answered, "the engine check's answer");
      const text = (selector) => section.querySelector(selector)?.textContent ?? "";
      return {
        state: section.dataset.engineCheck,
        summary: squash(text(".mg-engine__summary")),
        program: text(".mg-engine__program"),
        verdict: section.querySelector("[data-verdict]")?.dataset.verdict ?? null,
      };
    },
    async state(name) {
      await open(name);
      const wanted = tab(name);
      return { code: editorText(), passed: wanted.classList.contains("is-passed") };
    },
    /** Answers the page's first quiz of `kind` ("choice": its correct option; "number": `answer`). */
    async quiz(kind, answer) {
      const form = await until(() => document.querySelector(`form[data-kind="${kind}"]`), `a ${kind} quiz`);
      await until(() => !form.querySelector("button[type=submit]").hidden, "the quiz to be ready");
      if (kind === "choice") form.querySelector("input[data-correct]").click();
      else form.querySelector("input").value = String(answer);
      form.querySelector("button[type=submit]").click();
      const result = form.querySelector(".mg-quiz__result");
      await until(() => result.dataset.state, "the quiz's verdict");
      return { state: result.dataset.state, text: squash(result.textContent) };
    },
    /**
     * On the microgpt page: trains with the course's reference tuples (chosen: the journey passes
     * no local-gradient tab) until `steps` steps and the first names are shown, then pauses.
     * Returns the step, the smoothed loss and the names.
     */
    async trainMicrogpt(steps) {
      const gpt = await until(() => document.querySelector("[data-microgpt-widget].mg-gpt"), "the microgpt widget");
      const press = (name) => [...gpt.querySelectorAll("button")].find((b) => named(b) === name).click();
      const stats = gpt.querySelector("[data-step][data-loss]");
      gpt.querySelectorAll("[role=radiogroup] input")[1].click(); // the reference code
      press("Train");
      const shown = () => Number(stats.dataset.step) >= steps && gpt.querySelector("[data-sample]");
      const showing = () =>
        `step ${steps} and the first names; the page shows: ${squash(gpt.textContent).slice(0, 400)} ` +
        `(Python ${JSON.stringify(document.documentElement.dataset)})`;
      await until(shown, showing, TRAINING_TIMEOUT_MS);
      press("Pause");
      await until(() => stats.textContent.startsWith("Paused"), "the training to pause");
      const names = [...gpt.querySelectorAll("[data-sample]")].map((el) => el.dataset.sample);
      return { step: Number(stats.dataset.step), loss: Number(stats.dataset.loss), names };
    },
    isolated: async () => Boolean(globalThis.crossOriginIsolated),
    sharedMemory: async () => typeof SharedArrayBuffer === "function",
    /** The course's caches once its service worker is active, and whether it controls the page. */
    async keptOffline() {
      if (!navigator.serviceWorker) return { caches: [], controlled: false };
      await navigator.serviceWorker.ready;
      return { caches: await caches.keys(), controlled: Boolean(navigator.serviceWorker.controller) };
    },
    /** Whatever went wrong on the page so far (errors and rejections nobody handled). */
    errors: async () => window.courseJourneyErrors ?? [],
  };
  if (!window.courseJourneyErrors) {
    window.courseJourneyErrors = [];
    window.addEventListener("error", (event) => window.courseJourneyErrors.push(String(event.message)));
    window.addEventListener("unhandledrejection", (event) => window.courseJourneyErrors.push(String(event.reason)));
  }
})();
