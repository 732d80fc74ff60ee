// How a run of training is judged (widget/src/training/verdict.js) and said by each trainer, on
// runs the course's Python trainers made: the reference code and each "break it" switch, as the
// widgets set them (recorded by devtools/training_runs.py; tests/test_training.py and
// tests/test_microgpt.py check that their first steps are what the trainers still take).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { failed, verdict } from "../../widget/src/training/verdict.js";
import { finishedText } from "../../widget/src/training/words.js";
import { endText } from "../../widget/src/microgpt/words.js";
import { text } from "../../widget/src/exercise/where.js";

const RUNS = JSON.parse(readFileSync(new URL("fixtures/training-runs.json", import.meta.url)));
const UNIFORM = Math.log(27); // microgpt's vocabulary: a uniform guess's loss
const MOONS = { step_limit: 500, window: 50, settled: 0.01 }; // training/session.py's Config

/** A moons run as the widget judges and words it once it stops (training.js), the switches `broken` on. */
function moons(name, broken = []) {
  const run = RUNS[name];
  const plus = run.labels.filter((label) => label > 0).length;
  const chance = Math.max(plus, run.labels.length - plus) / run.labels.length;
  const found = verdict({ losses: run.losses, window: 50, guess: 1, accuracy: run.accuracy, chance });
  const end = { finished: run.finished, step: run.losses.length, config: MOONS, verdict: found };
  const context = { broken, rateTimes: 40 };
  return { found, words: finishedText({ ...end, accuracy: run.accuracy, chance, points: 100, context }) };
}

/** A microgpt run (by name, or itself) as its widget judges and words it once it has taken its
 * steps (microgpt.js). */
function microgpt(name, broken = [], disagree = []) {
  const run = RUNS[name] ?? name;
  const found = verdict({ losses: run.smoothed, guess: UNIFORM });
  const context = { trainedOps: [], broken, starters: [] };
  return { found, words: text(endText(found, run.config.steps, UNIFORM, disagree, context)) };
}

test("the moons' reference fits, and only a fit says the loss has stopped falling", () => {
  const { found, words } = moons("moons");
  assert.equal(found.kind, "fit");
  assert.match(words, /the loss has stopped falling .* and every point is on its side\. Train goes on/);
});

test("without zero_grad() the moons' loss rises to the tens, said with the switch to blame", () => {
  const { found, words } = moons("moons no_zero_grad", ["no_zero_grad"]);
  assert.equal(found.kind, "rose");
  assert.ok(found.end > 50 * found.start);
  assert.match(words, /^Training stopped at step 150 and failed: the loss rose from 0\.\d+ to \d\d(\.\d)? /);
  assert.match(words, /no better than a coin toss's 50%\. The “break it” switch “Skip zero_grad\(\)” is on/);
  assert.doesNotMatch(words, /stopped falling|more steps would change little/);
  const unswitched = moons("moons no_zero_grad").words;
  assert.match(unswitched, /gradients that pile up from step to step/);
  // the browser stops it at step 100 or so (two windows), where the accuracy swings
  const early = { ...moons("moons no_zero_grad"), accuracy: 0.59 };
  const words100 = finishedText({
    ...{ finished: "failed", step: 100, config: MOONS, verdict: early.found },
    ...{ accuracy: 0.59, chance: 0.5, points: 100, context: { broken: ["no_zero_grad"], rateTimes: 40 } },
  });
  assert.match(words100, /the accuracy is 59%, hardly better than a coin toss's 50%\./);
});

test("a moons learning rate 40 times too high blows the loss up, seen within two windows", () => {
  const run = RUNS["moons rate_too_high"];
  const { found, words } = moons("moons rate_too_high", ["rate_too_high"]);
  assert.equal(found.kind, "blew-up");
  assert.match(
    words,
    /the loss blew up from 0\.45 to \de\+1\d .* The “break it” switch makes the learning rate 40 times/,
  );
  // the widget stops such a run after two windows (GIVE_UP), not at the step limit of 500
  const early = verdict({ losses: run.losses.slice(0, 100), window: 50, guess: 1, accuracy: 0.5, chance: 0.5 });
  assert.equal(early.kind, "blew-up");
  assert.match(moons("moons rate_too_high").words, /the learning rate is far too high .* Lower it in the settings/);
});

test("= for += in __add__ stops short of a full fit, said with the points left and the switch", () => {
  const { found, words } = moons("moons assign_add", ["assign_add"]);
  assert.equal(found.kind, "fit");
  assert.ok(!failed(found));
  assert.match(
    words,
    /stopped falling .* and \d of the 100 points are still on the wrong side\. The “break it” switch puts = in place of \+= in __add__/,
  );
});

test("microgpt's reference: the smoothed loss fell below a uniform guess's", () => {
  const { found, words } = microgpt("microgpt");
  assert.equal(found.kind, "fit");
  assert.equal(
    words,
    "Training finished its 30 steps: the smoothed loss fell from 3.35 to 2.88, below a uniform guess's 3.30.",
  );
});

test("microgpt's wrong tuples make the loss rise, and the nudge's culprit is named", () => {
  const log = { op: "log", inputs: [0.04], given: [0.04], measured: 25, input: 0 };
  for (const [name, key] of [
    ["microgpt wrong_log", "wrong_log"],
    ["microgpt wrong_exp", "wrong_exp"],
  ]) {
    const { found, words } = microgpt(name, [key], key === "wrong_log" ? [log] : []);
    assert.equal(found.kind, "rose", name);
    assert.match(
      words,
      /^Training finished its 30 steps and failed: the smoothed loss rose from 3\.\d+, its lowest, to \d+(\.\d+)?, above a uniform guess's 3\.30\./,
    );
  }
  assert.match(
    microgpt("microgpt wrong_log", ["wrong_log"], [log]).words,
    /The culprit: log's local gradient .* switch “log returns \(x,\)” put that tuple there/,
  );
});

test("microgpt without p.grad = 0 rises from its lowest, and the loop is to blame", () => {
  const { found, words } = microgpt("microgpt no_zero_grad", ["no_zero_grad"]);
  assert.equal(found.kind, "rose");
  assert.match(words, /rose from 2\.\d+, its lowest, to 3\.\d+/);
  assert.match(words, /the training loop is to blame: the “break it” switch “Never set p\.grad = 0” is on/);
});

test("microgpt with a learning rate 10 times its own leaps, and ends no better than guessing", () => {
  const { found, words } = microgpt("microgpt rate_too_high", ["rate_too_high"]);
  assert.equal(found.kind, "chance");
  assert.ok(found.leapt);
  assert.match(
    words,
    /and failed: the smoothed loss ends at 3\.\d+, after leaping to 4\.\d+ at step \d, no better than a uniform guess's 3\.30\./,
  );
  assert.match(words, /learning rate 10 times microgpt's is on: Adam's steps overshoot/);
});

test("microgpt's run too short to learn is put on its steps or rate, not on a rate too high", () => {
  const short = { config: { steps: 3 }, smoothed: RUNS.microgpt.smoothed.slice(0, 3) };
  const { found, words } = microgpt(short);
  assert.equal(found.kind, "chance");
  assert.match(words, /to blame: too few steps, or a learning rate too low, leave it there/);
  assert.doesNotMatch(words, /too high/);
});

test("a run judged by a loss alone: a leap that came back down is said, but is no failure", () => {
  const losses = [3.3, 3.4, 4.5, 4.2, 3.6, 3.0, 2.7];
  const found = verdict({ losses, guess: UNIFORM });
  assert.deepEqual([found.kind, found.peakStep, failed(found)], ["leapt", 3, false]);
  assert.equal(verdict({ losses: [null], guess: 1 }).kind, "none");
});
