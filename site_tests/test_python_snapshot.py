"""Memory snapshots (widget/src/worker/snapshot.js, on in this course's mkdocs.yml): the first
runner packs Python's memory before it runs anything, the page saves it in IndexedDB, and later
runners and the judge restore it; a judge left idle packs its own, warm, before it judges
anything, and later judges restore that first. Later visits grade exactly as before, and an
entry that does not match the digest the page keeps, damaged or another build's, means a start
as if it were not there, which saves a good one again."""

import pytest

SAVE_TIMEOUT_MS = 20_000
# In the page: the `role`'s saved snapshot `{key, bytes}`, first damaged `how` (if given; see
# DAMAGE): resolves with `[key, size]`, or null when nothing is saved.
WITH_ENTRY = """async ([role, how]) => {
  const [info] = (await indexedDB.databases()).filter((db) => db.name.endsWith(":python-memory"));
  if (!info) return null;
  const db = await new Promise((resolve) => {
    indexedDB.open(info.name).onsuccess = (event) => resolve(event.target.result);
  });
  const inStore = (mode, act) => new Promise((resolve) => {
    const transaction = db.transaction("snapshots", mode);
    const request = act(transaction.objectStore("snapshots"));
    transaction.oncomplete = () => resolve(request.result);
  });
  let entry = await inStore("readonly", (store) => store.get(role));
  const damage = {
    garbage: (e) => ({ ...e, bytes: new Blob(["not a snapshot"]) }),
    truncated: (e) => ({ ...e, bytes: e.bytes.slice(0, e.bytes.size >> 1) }),
    stale: (e) => ({ ...e, key: e.key + "&another-build" }),
  };
  const changed = how && damage[how](entry);
  if (changed) {
    await inStore("readwrite", (store) => store.put(changed, role));
    entry = changed;
  }
  db.close();
  return entry ? [entry.key, entry.bytes.size] : null;
}"""
DAMAGE = ["garbage", "truncated", "stale"]  # stale: another build's


def entry(learner, damage=None, role="runner"):
    return learner.page.evaluate(WITH_ENTRY, [role, damage])


def saved_entry(learner, larger_than=1_000_000, role="runner"):
    """Waits until the page's snapshot of `role` is saved: `(key, size)`."""
    saved = None
    for _ in range(SAVE_TIMEOUT_MS // 100):
        saved = entry(learner, role=role)
        if saved and saved[1] > larger_than:
            return tuple(saved)
        learner.page.wait_for_timeout(100)
    pytest.fail(f"no snapshot was saved: {saved}")


def test_a_later_visit_restores_python_and_grades_as_before(visit, exercises):
    learner, _ = visit()
    assert learner.python_restored() is False
    mistake = exercises["mul"].known_wrong[0].bodies["mul"]
    assert learner.solve("__mul__", mistake) == "fail"
    said = learner.result_text()
    saved_entry(learner)

    learner.reload()
    assert learner.python_restored() is True
    assert learner.solve("__mul__", mistake) == "fail"
    assert learner.result_text() == said
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    # the standard library's fallback is installed after a restore too
    body = "import statistics\n" + exercises["exp"].solutions["exp"]
    assert learner.solve("exp", body) == "pass"


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_or_stale_snapshot_is_replaced_by_a_good_one(visit, exercises, how):
    learner, _ = visit()
    key, size = saved_entry(learner)
    entry(learner, how)

    learner.reload()
    assert learner.python_restored() is False
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    # whole again, and this build's
    assert saved_entry(learner, larger_than=size // 2)[0] == key

    learner.reload()
    assert learner.python_restored() is True


def judge_memory(learner):
    """Whose memory the judge restored ("judge", "runner"), or None."""
    learner.wait_until_python_ready()
    ready = 'performance.getEntriesByName("python-ready")[0]'
    return learner.page.evaluate(f"{ready}.detail.judgeMemory")


def test_an_idle_judge_saves_its_warm_memory_and_later_judges_restore_it(visit, exercises):
    learner, _ = visit()
    runner_key, _ = saved_entry(learner)
    judge_key, _ = saved_entry(learner, role="judge")  # nothing was asked of it
    assert judge_key != runner_key  # the grader's archive is one of its files

    learner.reload()
    assert judge_memory(learner) == "judge"
    mistake = exercises["mul"].known_wrong[0].bodies["mul"]
    assert learner.solve("__mul__", mistake) == "fail"
    said = learner.result_text()
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"

    # a judge's memory that is not whole is not restored: the runner's is, as before
    entry(learner, "truncated", role="judge")
    learner.reload()
    assert judge_memory(learner) == "runner"
    assert learner.solve("__mul__", mistake) == "fail"
    assert learner.result_text() == said


def test_a_judge_that_has_judged_saves_no_memory(visit, exercises):
    held = []  # the judge's grader.zip, held back until Run is pressed: Python is loading then

    def held_back(route):
        held.append(route)

    learner, _ = visit(before_open=lambda it: it.page.context.route("**/grader.zip", held_back))
    learner.write(exercises["add"].solutions["add"])
    learner.panel.get_by_role("button", name="Run test", exact=True).click()
    wait_until(learner, lambda: held)
    assert learner.page.evaluate('performance.getEntriesByName("python-ready").length') == 0
    for route in held:
        route.fallback()
    assert learner.verdict() == "pass"
    saved_entry(learner)
    # the judge, asked before it was warm, says it saved nothing (scheduler.js, worker/main.js)
    warm = 'performance.getEntriesByName("judge-warm-memory")'
    wait_until(learner, lambda: learner.page.evaluate(f"{warm}.length"))
    assert learner.page.evaluate(f"{warm}[0].detail.saved") is False
    assert entry(learner, role="judge") is None


def wait_until(learner, done, timeout_ms=SAVE_TIMEOUT_MS):
    for _ in range(timeout_ms // 50):
        if done():
            return
        learner.page.wait_for_timeout(50)
    pytest.fail("waited in vain")
