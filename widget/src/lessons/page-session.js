/**
 * A lesson page's Python session: one notebook (runner/notebook.py) held by a runner of its own
 * (python.js `session()`), started at the page's first Run and kept until Restart, a time-out
 * the runner could not be interrupted out of, or a crash. `history` lists what ran in it.
 */
import { python } from "../python/python.js";
import { fetchNames } from "../shared/names.js";

export class PageSession {
  #held = null; // a promise of the held session, once asked for
  #timeLimit;
  /** Which session this is: outputs of an earlier one are out of date (notebook.js). */
  id = 0;
  /** The runs of this session in order, `{cell, code}` (notebook.js). */
  history = [];

  #names; // whether the page's blocks read microgpt's names (microgpt/names.py `load`)

  constructor(timeLimit, { names = false } = {}) {
    this.#timeLimit = timeLimit;
    this.#names = names;
  }

  /** Whether a session is held or being started. */
  get held() {
    return this.#held !== null;
  }

  get timeLimit() {
    return this.#timeLimit;
  }

  /** Loads Python (not the session, and no judge: blocks are not graded): the learner is about
   * to run something. */
  warm() {
    python.start({ judge: false });
  }

  /** Asks the session (started now if none is held) `type` with `fields`: resolves with the
   * notebook's answer (parsed), `{stopped: {reason, answer?}}`, `{crashed}` or `{failed}` (no
   * Python), within `seconds`. A runner ended or broken ends the session: the next request
   * starts a new one, unless it belongs to session `within` (a block's graphs and claims), which
   * has ended: then it is stopped, and no session is started for it (the page may be gone). */
  async request(type, fields = {}, seconds = this.#timeLimit, within = null) {
    if (within !== null && within !== this.id) return { stopped: { reason: "stop" } };
    let held;
    try {
      held = await this.#session();
    } catch (error) {
      return { failed: error.message };
    }
    const answer = await held.request(type, fields, seconds);
    if (answer.crashed || (answer.stopped && !answer.stopped.answer) || held.ended) this.restart();
    return answer;
  }

  /** Stops the request under way (interrupted where the page can, else the runner is ended);
   * an idle session is left as it is. */
  stop() {
    this.#held?.then((held) => held.interrupt()).catch(() => {});
  }

  /** Ends the session and its runner; the next request starts a fresh one. */
  restart() {
    const held = this.#held;
    this.#held = null;
    this.history = [];
    this.id += 1;
    held?.then((session) => session.end()).catch(() => {});
  }

  #session() {
    if (!this.#held) {
      const id = this.id;
      this.#held = python.session({ timeLimit: this.#timeLimit, interrupt: true }).then(async (held) => {
        const names = this.#names ? await fetchNames() : null;
        const started = await held.request("cell-start", { names });
        if (started.crashed || started.stopped) throw new Error(started.crashed ?? "Python took too long to start");
        if (id !== this.id) held.end(); // restarted meanwhile
        return held;
      });
      this.#held.catch(() => {
        if (id === this.id) this.restart();
      });
    }
    return this.#held;
  }
}
