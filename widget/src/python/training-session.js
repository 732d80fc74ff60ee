/**
 * A training session (training/worker.py) on a runner of its own, handed over by the page's
 * Python (python.js `train()`): requests one at a time, each with its time limit.
 */

/** `{request(type, fields), stop()}` over `runner` ({worker, port}): `request` resolves with the
 * runner's answer (parsed), `{stopped: {reason: "time"}}` when it took longer than `timeLimit` seconds (the
 * runner is then ended), or `{crashed: message}`. */
export function trainingSession(runner, timeLimit) {
  let pending = null; // {resolve, timer}: the request under way
  const answer = (reply) => {
    const waiting = pending;
    pending = null;
    clearTimeout(waiting?.timer);
    waiting?.resolve(reply);
  };
  const end = (reply) => {
    runner.worker.terminate();
    runner.port.close();
    answer(reply);
  };
  runner.port.onmessage = ({ data }) => {
    if (data?.type === "trained") answer(parsed(data.answer));
    else if (data?.type === "crashed") answer({ crashed: String(data.message) });
  };
  runner.worker.addEventListener("error", (event) => {
    event.preventDefault();
    answer({ crashed: event.message || "the worker failed" });
  });
  return {
    request(type, fields) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => end({ stopped: { reason: "time" } }), timeLimit * 1000);
        pending = { resolve, timer };
        runner.port.postMessage({ type, ...fields });
      });
    },
    stop: () => end({ stopped: { reason: "stop" } }),
  };
}

function parsed(answer) {
  try {
    return JSON.parse(answer);
  } catch {
    return { crashed: "the training session sent back something that is not JSON" };
  }
}
