/**
 * A lesson page's live blocks (issue #52): every Python block of the page (`[data-cell]`) can be
 * edited and run, as a notebook's cells are, in one Python session per page (page-session.js).
 * The build's outputs are the first thing shown, and nothing starts Python until the learner
 * reaches a block or runs one. Running a block whose earlier blocks have not run in this session
 * runs them first; what no longer holds (outputs, graphs, claims) is marked out of date by
 * notebook.js's rules, never rewritten silently; the graphs after a block are redrawn from the
 * session's objects once it runs. A block's edit is saved (shared/storage.js) until Reset; one
 * made before the course changed the block is offered back, never dropped unasked.
 *
 * The build's page (course/cells.py) carries `<template data-lesson>`: `{page, cells: [{code,
 * raises, long}], graphs: [{expr, after}], claims: [{expr, text, after}], time_limit, names}`, and
 * `data-graph`, `data-claim` on the figures and numbers it names.
 */
import { h } from "../shared/dom.js";
import { store } from "../shared/storage.js";
import { CellView } from "./cell-view.js";
import { ranWords, stoppedWords } from "./cell-words.js";
import { blockLimit, cellState, goesOn, outOfDate, runFirst } from "./notebook.js";
import { PageSession } from "./page-session.js";

const LOST =
  "This block ran, but drawing its graph or checking the numbers after it did not finish in time: Python was restarted, and the next Run runs the blocks above again first.";

let current = null; // the page whose blocks are mounted: instant navigation swaps pages

/** What carries a lesson page's JSON: a template, which mkdocs-material's instant navigation
 * leaves be (it re-creates every <script> of a new page as code to run). */
export const LESSON_DATA = "template[data-lesson]";

/** Mounts the page's blocks, once: `carrier` holds its data-lesson JSON. */
export function mountCells(carrier) {
  endLeftCells();
  const json = carrier.content.textContent;
  current = new LessonPage(JSON.parse(json), carrier);
}

/** Ends the session of a page that instant navigation took away: its runner is no one's. */
export function endLeftCells() {
  if (current && !current.connected) {
    current.leave();
    current = null;
  }
}

class LessonPage {
  #lesson;
  #session;
  #views = [];
  #shown; // where each block's output came from (notebook.js)
  #graphs; // each graph's `shown`
  #claims; // each claim's `shown`
  #busy = false; // a run of blocks is under way: one at a time
  #stopping = false; // Stop was pressed during it
  #status;
  #toolbarEl;
  #took = []; // how long each block's page code took to run here, in seconds

  constructor(lesson, carrier) {
    this.#lesson = lesson;
    this.#session = new PageSession(lesson.time_limit, { names: lesson.names });
    const original = lesson.cells.map((cell) => cell.code);
    this.original = original;
    this.#shown = original.map(() => ({ from: "build" }));
    this.#graphs = (lesson.graphs ?? []).map(() => ({ from: "build" }));
    this.#claims = (lesson.claims ?? []).map(() => ({ from: "build" }));
    const roots = [...document.querySelectorAll("[data-cell]")];
    roots.sort((a, b) => Number(a.dataset.cell) - Number(b.dataset.cell));
    for (const [i, root] of roots.entries()) {
      if (i >= original.length) break;
      const saved = store.cellCode(lesson.page, i, original);
      this.#views.push(
        new CellView(root, {
          index: i,
          text: saved ?? original[i],
          edited: saved !== null,
          earlier: saved === null ? () => store.earlierCellCode(lesson.page, i, original) : null,
          onEdit: (text) => this.#edited(i, text),
          onRun: () => this.run(i),
          onStop: () => this.stop(),
          onReset: () => this.reset([i]),
          onFocus: () => this.#session.warm(),
        }),
      );
    }
    this.#toolbarEl = this.#toolbar();
    carrier.closest(".mg-lesson").after(this.#toolbarEl); // the carrier's block is hidden
    this.#refresh();
  }

  get connected() {
    return this.#toolbarEl.isConnected;
  }

  leave() {
    this.#session.restart();
  }

  /** "Run all", "Restart", "Reset all" and the page's own line, before the first block. */
  #toolbar() {
    const button = (label, click, title) =>
      h("button", { type: "button", class: "mg-button", onclick: click, title }, label);
    this.#status = h("p", { class: "mg-cells__status", role: "status" });
    return h(
      "div",
      { class: "mg-widget mg-cells", "data-cells-toolbar": "", "data-cells-busy": "false" },
      h("p", { class: "mg-cells__about" }, "Every code block on this page runs: edit one and press its Run."),
      h(
        "div",
        { class: "mg-cells__buttons" },
        button("Run all", () => this.runAll(), "Run every block from the top, in a fresh session"),
        button("Restart", () => this.restart(), "End this page's Python session: the next Run starts afresh"),
        button("Reset all", () => this.reset(this.#views.map((_, i) => i)), "Put back the page's code of every block"),
      ),
      this.#status,
    );
  }

  get #facts() {
    const { history, id } = this.#session;
    const codes = this.#views.map((view) => view.text);
    return { original: this.original, codes, history, session: id, shown: this.#shown };
  }

  /** Runs block `k`, after the blocks above it that have not run in this session (`#runBlocks`:
   * `asked` is null for Run all). */
  run(k) {
    if (this.#busy) return this.#sayBusy();
    const first = runFirst(this.#session.history, k);
    return this.#runBlocks([...first, k], k, first);
  }

  /** Every block from the top, in a fresh session unless nothing has run in this one yet. */
  runAll() {
    if (this.#busy) return this.#sayBusy();
    if (!this.#views.length) return;
    if (this.#session.history.length) this.restart();
    const all = this.#views.map((_, i) => i);
    return this.#runBlocks(all, null, []);
  }

  stop() {
    if (!this.#busy) return;
    this.#stopping = true; // the chain of blocks ends after the one under way
    this.#session.stop();
  }

  restart() {
    if (this.#busy) {
      this.#stopping = true;
      this.#session.stop();
    }
    this.#session.restart();
    this.say("The page's Python session was ended: the next Run starts a fresh one.");
    this.#refresh();
  }

  /** Puts back the page's code of `blocks`. */
  reset(blocks) {
    for (const i of blocks) {
      this.#views[i].setText(this.original[i]);
      this.#edited(i, this.original[i]);
    }
  }

  #edited(i, text) {
    store.setCellCode(this.#lesson.page, i, text, this.original);
    const edited = text !== this.original[i];
    if (edited) this.#views[i].dropOffer(); // an edit replaces an earlier one; Reset does not
    this.#views[i].setEdited(edited);
    this.#refresh();
  }

  async #runBlocks(blocks, asked, first) {
    this.#busy = true;
    this.#toolbarEl.dataset.cellsBusy = "true";
    const views = this.#views;
    for (const i of blocks) {
      views[i].say("");
      views[i].setState("running"); // until it has run: the blocks waiting their turn too
    }
    let pageWords = "";
    this.#stopping = false;
    try {
      this.say("");
      if (!this.#session.held) (views[asked] ?? this).say("Starting Python…");
      const session = this.#session.id;
      for (const i of blocks) {
        const ran = await this.#runOne(i);
        views[i].setState(cellState(i, this.#facts));
        let said = ran.answered ? "" : stoppedWords(ran.answer, ran.seconds);
        // drawing its graph or checking its numbers took too long: the blocks below would run in
        // a fresh session without those above them
        if (!said && this.#session.id !== session && !this.#stopping) said = LOST;
        if (said || !goesOn(ran.answer, this.#lesson.cells[i].raises)) {
          views[i].say(said || ranWords(ran.answer, i === asked ? first : null));
          if (asked === null) pageWords = `Block ${i + 1} stopped with an error, so the blocks after it did not run.`;
          else if (i !== asked) views[asked].say(`Block ${i + 1} stopped with an error, so this block did not run.`);
          break;
        }
        views[i].say(ranWords(ran.answer, i === asked ? first : null));
        if (this.#stopping) {
          (views[asked] ?? this).say(`Stopped after block ${i + 1}.`);
          break;
        }
      }
    } finally {
      // whatever a run answered, the page's blocks are not left busy
      this.#busy = false;
      this.say(pageWords);
      for (const view of views) if (view.root.dataset.cellState === "running") view.setState("idle");
      this.#refresh();
      this.#toolbarEl.dataset.cellsBusy = "false";
    }
  }

  /** Runs block `i` in the session: `{answered, answer}`, `answer` the notebook's (also when a
   * Stop or the time limit interrupted it) or, not answered, what stopped it. */
  async #runOne(i) {
    const code = this.#views[i].text;
    const seconds = this.#limit(i, code);
    const started = performance.now();
    const answer = await this.#session.request("cell-run", { code }, seconds);
    if (code === this.original[i] && answer.error === null) this.#took[i] = (performance.now() - started) / 1000;
    const ran = answer.stopped?.answer ?? (typeof answer.output === "string" ? answer : null);
    const session = this.#session;
    if (ran) session.history.push({ cell: i, code });
    const error = !ran || Boolean(ran.error);
    this.#shown[i] = { from: "run", code, at: session.history.length - 1, session: session.id, error };
    this.#views[i].show(ran?.output ?? "", ran?.error?.line ?? null);
    if (ran) await this.#after(i, seconds);
    return { answered: ran === answer, answer: ran === answer ? ran : answer, seconds };
  }

  /** The time limit of a run of block `i`'s `code`, in seconds (notebook.js `blockLimit`). */
  #limit(i, code) {
    const { timeLimit } = this.#session;
    return blockLimit({
      code,
      original: this.original[i],
      long: this.#lesson.cells[i].long,
      took: this.#took[i],
      timeLimit,
    });
  }

  /** After block `i` ran: the graphs and claims that stand right after it, if the build's no
   * longer hold. */
  async #after(i, seconds) {
    const facts = this.#facts;
    const { graphs = [], claims = [] } = this.#lesson;
    const now = { from: "run", at: facts.history.length - 1, session: facts.session };
    for (const [j, graph] of graphs.entries()) {
      if (graph.after !== i || !outOfDate(i, this.#graphs[j], facts)) continue;
      const { redraw } = await import("./graph-draw.js");
      const figure = document.querySelector(`[data-graph="${j}"]`);
      // a drawing that failed stays as it was, marked out of date
      // asked of this run's session only: one ended meanwhile (Restart, a page left) starts none
      const within = { request: (type, fields, s) => this.#session.request(type, fields, s, now.session) };
      if (await redraw(within, graph, figure, seconds).catch(() => false)) this.#graphs[j] = now;
    }
    const mine = claims.flatMap((claim, j) => (claim.after === i && outOfDate(i, this.#claims[j], facts) ? [j] : []));
    if (!mine.length) return;
    const asked = mine.map((j) => ({ expr: claims[j].expr, text: claims[j].text }));
    const answer = await this.#session.request("cell-claims", { claims: asked }, seconds, now.session);
    if (!Array.isArray(answer)) return; // stopped, or the session ended: they stay as they were
    for (const [n, j] of mine.entries()) {
      const { holds = null, value = null } = answer[n] || {};
      this.#claims[j] = holds ? now : { from: "untrue", value };
    }
  }

  /** Every block's, graph's and claim's state from the facts. */
  #refresh() {
    const facts = this.#facts;
    for (const [i, view] of this.#views.entries()) {
      if (view.root.dataset.cellState !== "running") view.setState(cellState(i, facts));
    }
    const { graphs = [], claims = [] } = this.#lesson;
    for (const [j, graph] of graphs.entries()) {
      const figure = document.querySelector(`[data-graph="${j}"]`);
      if (figure) figure.dataset.graphState = outOfDate(graph.after, this.#graphs[j], facts) ? "stale" : "current";
    }
    for (const [j, claim] of claims.entries()) {
      const shown = this.#claims[j];
      const stale = shown.from === "untrue" || outOfDate(claim.after, shown, facts);
      markClaim(document.querySelector(`[data-claim="${j}"]`), stale, shown.value);
    }
  }

  #sayBusy() {
    this.say("Blocks are running: wait for them to finish, or press Stop.");
  }

  say(words) {
    this.#status.textContent = words;
  }
}

/** A number in the prose the session no longer bears out: marked, never rewritten. */
function markClaim(el, stale, value) {
  if (!el) return;
  el.dataset.claimState = stale ? "stale" : "current";
  if (!stale) return el.removeAttribute("title");
  const now = typeof value === "number" ? `: this session gives ${value}` : ": the code above it changed";
  el.title = `Out of date${now}`;
}
