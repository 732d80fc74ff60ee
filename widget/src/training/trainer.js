/**
 * The shell both trainers share (the moons', training.js, and microgpt's): a session of the
 * page's Python trained a chunk of steps at a time, so that Pause and Reset answer at once and
 * the page never waits. It holds the state of training in one place and makes the requests;
 * what a widget asks for, shows and says is the widget's own (`parts`). No DOM: Node tests
 * drive it with sessions made up (tests/widget/trainer.test.mjs).
 *
 * Its states (`state`, announced to `parts.announce` on every change):
 * - "training": Train's loop is on; "pausing": Pause was pressed, the chunk under way not shown yet
 * - "stepping": a Step is under way
 * - at rest: "idle" (not trained yet, or since a Step or Reset), "paused", "finished" (training
 *   stopped by itself: `parts.shown` or `parts.more` said so), "stopped" (a problem ended the
 *   session, said by `parts.stopped`)
 *
 * `parts`, the widget's own:
 * - `chunk`: steps a request while training; `connected()`: whether the widget is on the page
 * - `open()`: a session of the page's Python started, `{session, answer}` (the start's answer),
 *   or null when none could be had (the widget said why)
 * - `started(answer, step)`: shows the start's answer (training from `step` on)
 * - `ask(count)`: `[type, fields]`, the request for `count` steps
 * - `came(answer, from)`: shows the steps that came, from step `from + 1`, before a problem is looked for
 * - `shown(answer)`: shows a settled answer; true when training has stopped by itself
 * - `problem(answer, step)`: what ended training, in words, or null; `stopped(words, answer)` says it
 * - `cleared()`: the widget's own Reset
 * - `announce(state)`
 * - optional: `more(step)`, whether Train has steps left (always, unless said); `training()`,
 *   as Train starts; `between()`,
 *   after each of Train's chunks (false ends training); `stepped(step)`, after a Step;
 *   `finished()`, after Train stopped by itself; `paused()`, after Train paused
 */
export class Trainer {
  #parts;
  #session = null; // the runner's session, taking one request at a time, once started
  #opening = null; // its start, while under way
  #epoch = 0; // counts the sessions ended: an answer from an earlier one is not shown
  #step = 0; // the last step shown
  #running = false; // Train's loop is on
  #pausing = false; // Pause was pressed: said once the chunk under way has been shown
  #stepping = false; // a Step is under way
  #rest = "idle"; // the state once nothing is under way
  #announced = null;

  constructor(parts) {
    this.#parts = parts;
  }

  get state() {
    if (this.#running) return this.#pausing ? "pausing" : "training";
    return this.#stepping ? "stepping" : this.#rest;
  }

  get step() {
    return this.#step;
  }

  /** Train: chunks of steps until Pause, a problem, the widget leaving the page or the end. */
  async train() {
    if (this.#running) return;
    const epoch = this.#epoch;
    this.#running = true;
    this.#pausing = false;
    this.#rest = "idle";
    this.#announce();
    this.#parts.training?.();
    while (!this.#pausing && epoch === this.#epoch && this.#parts.connected() && (await this.#chunk())) {
      if (this.#parts.between && !(await this.#parts.between())) break;
    }
    if (epoch !== this.#epoch) return; // the session ended: what ended it set the state
    if (!this.#more()) this.#rest = "finished";
    else if (this.#pausing && this.#rest === "idle") this.#rest = "paused";
    if (this.#rest === "finished" && this.#session) await this.#parts.finished?.();
    if (epoch !== this.#epoch) return;
    this.#running = false;
    this.#pausing = false;
    if (this.#rest === "paused") this.#parts.paused?.();
    this.#announce();
  }

  /** Pause: Train stops once the chunk under way has been shown. */
  pause() {
    if (!this.#running) return;
    this.#pausing = true;
    this.#announce();
  }

  /** Step: one step, shown. */
  async stepOnce() {
    if (this.#running || this.#stepping) return;
    this.#stepping = true;
    this.#announce();
    if (await this.#advance(1)) await this.#parts.stepped?.(this.#step);
    this.#stepping = false;
    this.#announce();
  }

  /** Reset: the session ended, nothing trained, the widget cleared. */
  restart() {
    this.#end("idle");
    this.#step = 0;
    this.#parts.cleared();
  }

  /** A request of the widget's own (its session started if need be): its answer, or null when
   * the session ended before it or it ended the session (a problem, said). */
  async request(type, fields) {
    const session = (await this.#begin()) && this.#session;
    if (!session) return null;
    const epoch = this.#epoch;
    const answer = await session.request(type, fields);
    return epoch === this.#epoch && this.#settled(answer) ? answer : null;
  }

  /** One of Train's chunks, unless training has no steps left. */
  async #chunk() {
    return this.#more() && this.#advance(this.#parts.chunk);
  }

  /** Whether Train has steps left to take. */
  #more() {
    return this.#parts.more?.(this.#step) ?? true;
  }

  /** Takes up to `count` steps (the session started if need be) and shows them; whether
   * training may go on. */
  async #advance(count) {
    const session = (await this.#begin()) && this.#session;
    if (!session) return false;
    const [epoch, from] = [this.#epoch, this.#step];
    this.#rest = "idle";
    const answer = await session.request(...this.#parts.ask(count));
    if (epoch !== this.#epoch) return false;
    this.#parts.came(answer, from);
    if (!this.#settled(answer)) return false;
    this.#step = answer.step;
    if (!this.#parts.shown(answer)) return true;
    this.#rest = "finished";
    return false;
  }

  #begin() {
    if (this.#session) return Promise.resolve(true);
    if (!this.#opening) this.#opening = this.#open();
    return this.#opening;
  }

  /** Opens a session and shows its start; whether it started. */
  async #open() {
    const epoch = this.#epoch;
    const opened = await this.#parts.open();
    if (epoch !== this.#epoch) {
      opened?.session.stop(); // Reset was pressed meanwhile: this session is no one's
      return false;
    }
    this.#opening = null;
    if (!opened) return false;
    this.#session = serial(opened.session);
    if (!this.#settled(opened.answer)) return false;
    this.#parts.started(opened.answer, this.#step);
    return true;
  }

  /** Ends the session on a problem (said) or a crash; true if the answer has none. */
  #settled(answer) {
    if (answer.stopped?.reason === "stop") return false;
    const problem = this.#parts.problem(answer, this.#step);
    if (!problem) return true;
    this.#parts.stopped(problem, answer);
    this.#end("stopped");
    return false;
  }

  /** Ends the session and whatever was under way in it, and rests in `rest`. */
  #end(rest) {
    this.#session?.stop();
    this.#session = null;
    this.#opening = null;
    this.#epoch += 1;
    this.#running = false;
    this.#pausing = false;
    this.#rest = rest;
    this.#announce();
  }

  #announce() {
    const state = this.state;
    if (state === this.#announced) return;
    this.#announced = state;
    this.#parts.announce(state);
  }
}

/**
 * `session` taking one request at a time, in the order asked: Step, Train and a widget's own
 * requests may be asked for while one is under way. A request whose turn comes after the
 * session ended is answered `{stopped: {reason: "stop"}}`.
 */
export function serial(session) {
  let queue = Promise.resolve();
  let ended = false;
  return {
    request(type, fields) {
      const answer = queue.then(() => (ended ? { stopped: { reason: "stop" } } : session.request(type, fields)));
      queue = answer;
      return answer;
    },
    stop() {
      ended = true;
      session.stop();
    },
  };
}
