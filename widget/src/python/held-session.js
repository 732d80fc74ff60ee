/**
 * A session a runner holds (a training session, training/worker.py; a lesson page's notebook,
 * runner/notebook.py), handed over by the page's Python (python.js `session()`): requests one at
 * a time, each with its time limit.
 */
import { INTERRUPT_GRACE_MS } from "./scheduler.js";

/**
 * `{request(type, fields, seconds), stop(), interrupt(), end(), ended}` over `runner` ({worker,
 * port, interrupt}): `request` resolves with the runner's answer (parsed), `{stopped: {reason}}`
 * when it took longer than `seconds` (by default `timeLimit`; reason "time") or was stopped
 * ("stop"), the runner then ended, or `{crashed: message}`.
 *
 * With `interrupt` and a runner that has an interrupt buffer (a cross-origin isolated page), a
 * request past its time or stopped is interrupted first (KeyboardInterrupt at the next bytecode)
 * and given a moment to answer: the answer comes as `{stopped: {reason, answer}}` and the runner
 * is kept, its session still held; only if it says nothing is it ended.
 */
export function heldSession(runner, timeLimit, { interrupt = false } = {}) {
  let pending = null; // {resolve, timer, stopping}: the request under way
  let ended = false;
  const answer = (reply) => {
    const waiting = pending;
    pending = null;
    clearTimeout(waiting?.timer);
    waiting?.resolve(
      waiting.stopping && !reply.stopped && !reply.crashed
        ? { stopped: { reason: waiting.stopping, answer: reply } }
        : reply,
    );
  };
  const end = (reply) => {
    ended = true;
    runner.worker.terminate();
    runner.port.close();
    answer(reply);
  };
  const halt = (reason) => {
    if (!pending || pending.stopping) return;
    if (!(interrupt && runner.interrupt)) return end({ stopped: { reason } });
    pending.stopping = reason;
    clearTimeout(pending.timer);
    pending.timer = setTimeout(() => end({ stopped: { reason } }), INTERRUPT_GRACE_MS);
    runner.interrupt[0] = 2; // SIGINT
  };
  runner.port.onmessage = ({ data }) => {
    if ((data?.type === "trained" || data?.type === "cell") && typeof data.answer === "string")
      answer(parsed(data.answer));
    else if (data?.type === "crashed") answer({ crashed: String(data.message) });
  };
  runner.worker.addEventListener("error", (event) => {
    event.preventDefault();
    answer({ crashed: event.message || "the worker failed" });
  });
  return {
    request(type, fields, seconds = timeLimit) {
      if (ended) return Promise.resolve({ crashed: "the session has ended" });
      return new Promise((resolve) => {
        if (runner.interrupt) runner.interrupt[0] = 0; // a Stop that came too late is forgotten
        const timer = setTimeout(() => halt("time"), seconds * 1000);
        pending = { resolve, timer, stopping: null };
        runner.port.postMessage({ type, ...fields });
      });
    },
    /** Stops the request under way (see above); with none, ends the runner. */
    stop() {
      if (pending) halt("stop");
      else if (!ended) end({ stopped: { reason: "stop" } });
    },
    /** Stops the request under way, if one is; the runner and its session stay otherwise. */
    interrupt() {
      if (pending) halt("stop");
    },
    /** Ends the runner, and the session it holds, at once. */
    end: () => ended || end({ stopped: { reason: "stop" } }),
    get ended() {
      return ended;
    },
  };
}

/** The runner's answer, parsed: an object or an array, else what the page says of a runner
 * whose learner code took its reply over. */
function parsed(answer) {
  try {
    const found = JSON.parse(answer);
    if (found !== null && typeof found === "object") return found;
  } catch {
    // said below
  }
  return { crashed: "the session sent back something that is not its answer" };
}
