/**
 * The page's Python, "Check my whole engine" (exercise/engine-check.js): scheduler.js's
 * transitions for a fuzz session, the same model (`step` does nothing itself; actions only).
 *
 * A session asks the judge first (grader/fuzz_page.py): the judge draws the graphs, decides
 * what to run and never runs learner code. Each answer that asks goes to the session's runner
 * (runner/fuzz.py `ask_json`), which it keeps from its first ask to its end; what the runner
 * sends back goes to the judge, until the judge says it is done. A run past its time limit ends
 * that runner (the judge is told, and the next ask takes a new spare); Stop, a widget that
 * left the page or a crash end the session and its runner at once.
 *
 * Events: `{type: "fuzz", job, design, bodies, count, seed, told, limitMs}`, `{type:
 * "fuzz-time-up", job}`; from workers, the judge's `{type: "fuzz-judged", id, answer}` (`{answer:
 * null, message}` where the grader raised, as "judged" says it) and the runner's `{type:
 * "fuzz-ran", answer}` (or "crashed"). Actions, beside scheduler.js's: `fuzz-progress {job,
 * progress}`; a session settles with `{found}` (grader/fuzz_page.py's), `{stopped: {reason}}` or
 * `{crashed: message}`.
 */
import { MAX_OBSERVATION } from "./limits.js";

/** A session wants to start: it waits for the judge (and Python) like a run. */
export function queueFuzz(m, { job, design, bodies, count, seed, told = [], limitMs }) {
  const s = m.state;
  if (s.status.state === "failed") return m.do("reject", { job, message: s.status.message });
  m.needJudge();
  s.fuzzQueue.push({ id: job, design, bodies, count, seed, told, limitMs });
  m.pump();
}

/** Starts a waiting session once the judge exists, and hands a ready spare to a session whose
 * judge asked for a run. Runs before scheduler.js's own runs: a session's ask is short. */
export function pumpFuzz(m) {
  const s = m.state;
  if (!s.fuzz && s.fuzzQueue.length && s.judge) {
    const job = s.fuzzQueue.shift();
    s.fuzz = { job, runner: null, request: 0, ask: null, posted: false };
    const { id, design, bodies, count, seed, told } = job;
    askJudge(m, { type: "fuzz-begin", session: id, design, bodies, count, seed, told });
  }
  const f = s.fuzz;
  if (f?.ask && !f.runner && s.spare?.ready) {
    f.runner = s.spare;
    s.spare = null;
    m.startSpare();
    postAsk(m);
  }
}

/** A message from the judge or the session's runner; false when it is not the session's. */
export function receiveFuzz(m, known, data) {
  const s = m.state;
  const f = s.fuzz;
  if (known === s.judge && data?.type === "fuzz-judged") {
    if (f && data.id === f.request) judgeAnswered(m, data);
    return true;
  }
  if (!f?.runner || known !== f.runner) return false;
  if (data?.type === "fuzz-ran" && f.posted) {
    f.posted = false;
    m.do("clear-timer", { key: "fuzz" });
    const fair = typeof data.answer === "string" && data.answer.length <= MAX_OBSERVATION;
    askJudge(m, { type: "fuzz-next", session: f.job.id, ran: fair ? data.answer : null, unrunnable: "" });
  } else if (data?.type === "crashed") {
    endFuzz(m, { crashed: String(data.message) });
  }
  return true;
}

/** Stop or a widget that left: a waiting session is dropped, one under way ended at once. */
export function stopFuzz(m, job, reason) {
  const s = m.state;
  const index = s.fuzzQueue.findIndex((waiting) => waiting.id === job);
  if (index >= 0) {
    s.fuzzQueue.splice(index, 1);
    m.do("settle", { job, outcome: { stopped: { reason, error: null } } });
    return true;
  }
  if (s.fuzz?.job.id !== job) return false;
  endFuzz(m, { stopped: { reason, error: null } });
  return true;
}

/** The session's run took longer than its limit: its runner is ended, the judge told. */
export function fuzzTimeUp(m, job) {
  const f = m.state.fuzz;
  if (f?.job.id !== job || !f.posted) return;
  endRunner(m);
  const unrunnable = `still running after ${f.job.limitMs / 1000} s`;
  askJudge(m, { type: "fuzz-next", session: job, ran: null, unrunnable });
  m.pump();
}

/** A worker's error event: the session's runner failing crashes the session. */
export function fuzzWorkerFailed(m, worker, message) {
  if (m.state.fuzz?.runner?.id !== worker) return false;
  endFuzz(m, { crashed: message });
  return true;
}

/** Python restarted or failed: the session and those waiting are rejected. */
export function killFuzz(m, message) {
  const s = m.state;
  if (s.fuzz?.runner) m.do("end", { worker: s.fuzz.runner.id });
  const jobs = [s.fuzz?.job, ...s.fuzzQueue].filter(Boolean);
  for (const job of jobs) m.do("reject", { job: job.id, message });
  Object.assign(s, { fuzz: null, fuzzQueue: [] });
}

/** The workers a session holds, for scheduler.js's `describe` and worker routing. */
export function fuzzBusy(state) {
  return Boolean(state.fuzz || state.fuzzQueue.length);
}

function judgeAnswered(m, { answer, message }) {
  const f = m.state.fuzz;
  // the grader raised (worker/main.js): its exception, the last line of Python's traceback
  if (answer === null && typeof message === "string")
    return endFuzz(m, { crashed: lastLine(message) || "the grader raised an exception" });
  const parsed = parseJson(answer);
  if (parsed?.found !== undefined) return endFuzz(m, { found: parsed.found }, { told: false });
  if (!parsed?.ask) return endFuzz(m, { crashed: "the grader's answer was not one it gives" });
  f.ask = JSON.stringify(parsed.ask);
  m.do("fuzz-progress", { job: f.job.id, progress: parsed.progress ?? {} });
  if (f.runner) postAsk(m);
  else m.pump();
}

function askJudge(m, message) {
  const s = m.state;
  s.fuzz.request = ++s.ids;
  s.judge.asked = true; // its memory is no longer one to save
  m.do("post", { worker: s.judge.id, message: { id: s.fuzz.request, ...message } });
}

function postAsk(m) {
  const f = m.state.fuzz;
  const { design, bodies, limitMs, id } = f.job;
  f.posted = true;
  m.do("timer", { key: "fuzz", ms: limitMs, event: { type: "fuzz-time-up", job: id } });
  m.do("post", { worker: f.runner.id, message: { type: "fuzz", design, bodies, ask: f.ask } });
}

function endRunner(m) {
  const f = m.state.fuzz;
  m.do("clear-timer", { key: "fuzz" });
  if (!f.runner) return;
  m.do("end", { worker: f.runner.id });
  f.runner = null;
  f.posted = false;
  m.startSpare();
}

/** Ends the session with `outcome`; the judge forgets it unless it ended it itself. */
function endFuzz(m, outcome, { told = true } = {}) {
  const s = m.state;
  const { job } = s.fuzz;
  endRunner(m);
  if (told) m.do("post", { worker: s.judge.id, message: { type: "fuzz-end", session: job.id } });
  s.fuzz = null;
  m.do("settle", { job: job.id, outcome });
  m.pump();
}

function parseJson(text) {
  try {
    return typeof text === "string" ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

const lastLine = (text) => text.trim().split("\n").at(-1);
