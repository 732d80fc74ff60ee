/**
 * The course's map (course/record.py writes it into the record pages) and each exercise's state
 * in it, from the saved progress: what the progress page, its certificate and the indicator on
 * every page show. Pure but for `readCourseMap`, tested in Node.
 */

/** The map a record page carries: `{time_limit, pages: [{title, url, exercises}]}`. */
export function readCourseMap(root) {
  const carrier = root.querySelector("template[data-course-map]");
  if (!carrier?.content.textContent.trim()) throw new Error("the page has no map of the course");
  return JSON.parse(carrier.content.textContent);
}

/** "passed", "tried" or "not-started", from a progress record (shared/storage.js `progress`). */
export function tabState(progress) {
  if (progress.solved) return "passed";
  return progress.attempted || progress.verdict !== null ? "tried" : "not-started";
}

/**
 * Each page with each exercise's `{exercise, page, state, passedAt, at, verdict}`, and `resume`: the first exercise
 * not passed, after the last one the learner worked on (else the course's first not passed), or
 * null when all have passed. `progressOf(exercise)` reads its saved progress.
 */
export function courseProgress(map, progressOf) {
  const pages = map.pages.map((page) => ({
    ...page,
    exercises: page.exercises.map((exercise) => {
      const progress = progressOf(exercise);
      const { passedAt, at, verdict } = progress;
      return { exercise, page, state: tabState(progress), passedAt, at, verdict };
    }),
  }));
  const all = pages.flatMap((page) => page.exercises);
  const latest = all.reduce((best, tab, i) => (tab.at && (best < 0 || tab.at > all[best].at) ? i : best), -1);
  const open = (tab) => tab.state !== "passed";
  const resume = all.slice(latest + 1).find(open) ?? all.find(open) ?? null;
  const count = (state) => all.filter((tab) => tab.state === state).length;
  return { pages, resume, passed: count("passed"), tried: count("tried"), total: all.length };
}

/** How many exercises of the course (`versions`: {id: version}) have passed. */
export function passedCount(versions, progressOf) {
  return Object.entries(versions).filter(([id, version]) => tabState(progressOf({ id, version })) === "passed").length;
}

/** A saved time (ISO) as the learner's day, in their language: "28 Nov 2026". */
export function dayOf(iso, locale = undefined) {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return "";
  return date.toLocaleDateString(locale, { year: "numeric", month: "short", day: "numeric" });
}
