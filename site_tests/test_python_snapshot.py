"""Memory snapshots (widget/src/worker/snapshot.js, on in this course's mkdocs.yml): the first
runner packs Python's memory before it runs anything, the page saves it in IndexedDB, and later
runners and the judge restore it; later visits grade exactly as before, and an entry that does
not match the digest the page keeps, damaged or another build's, means a start from scratch
that saves a good one again."""

import pytest

SAVE_TIMEOUT_MS = 20_000
# In the page: the saved snapshot `{key, bytes}`, first damaged `how` (if given; see DAMAGE):
# resolves with `[key, size]`, or null when nothing is saved.
WITH_ENTRY = """async (how) => {
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
  let entry = await inStore("readonly", (store) => store.get("python"));
  const damage = {
    garbage: (e) => ({ ...e, bytes: new Blob(["not a snapshot"]) }),
    truncated: (e) => ({ ...e, bytes: e.bytes.slice(0, e.bytes.size >> 1) }),
    stale: (e) => ({ ...e, key: e.key + "&another-build" }),
  };
  const changed = how && damage[how](entry);
  if (changed) {
    await inStore("readwrite", (store) => store.put(changed, "python"));
    entry = changed;
  }
  db.close();
  return entry ? [entry.key, entry.bytes.size] : null;
}"""
DAMAGE = ["garbage", "truncated", "stale"]  # stale: another build's


def entry(learner, damage=None):
    return learner.page.evaluate(WITH_ENTRY, damage)


def saved_entry(learner, larger_than=1_000_000):
    """Waits until the page's snapshot is saved: `(key, size)`."""
    saved = None
    for _ in range(SAVE_TIMEOUT_MS // 100):
        saved = entry(learner)
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
