"""Memory snapshots (widget/src/snapshot.js, on in this course's mkdocs.yml): the first visit
saves Python's memory in Cache Storage, later visits restore it and grade exactly as before, and
a damaged entry is dropped for a start from scratch that saves a good one again."""

import pytest
from playwright.sync_api import expect

SAVE_TIMEOUT_MS = 20_000
# the page's view of the saved entries: {url: bytes}
ENTRIES = """async () => {
  const entries = {};
  for (const name of await caches.keys()) {
    if (!name.endsWith(":python-memory")) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys())
      entries[request.url] = (await (await cache.match(request)).arrayBuffer()).byteLength;
  }
  return entries;
}"""
DAMAGE = """async ({url, how}) => {
  for (const name of await caches.keys()) {
    if (!name.endsWith(":python-memory")) continue;
    const cache = await caches.open(name);
    const bytes = new Uint8Array(await (await cache.match(url)).arrayBuffer());
    const damaged = how === "truncated" ? bytes.subarray(0, bytes.length >> 1)
      : new TextEncoder().encode("not a snapshot");
    await cache.put(url, new Response(damaged));
  }
}"""


def saved_entry(learner, larger_than=1_000_000):
    """Waits until the page's snapshot is saved: `(url, size)`."""
    entries = {}
    for _ in range(SAVE_TIMEOUT_MS // 100):
        entries = learner.page.evaluate(ENTRIES)
        if len(entries) == 1 and next(iter(entries.values())) > larger_than:
            return next(iter(entries.items()))
        learner.page.wait_for_timeout(100)
    pytest.fail(f"no snapshot was saved: {entries}")


def test_a_later_visit_restores_python_and_grades_as_before(visit, exercises):
    learner, _ = visit()
    assert learner.python_restored() is False
    mistake = exercises["mul"].mistakes[0].bodies["mul"]
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


def test_only_one_snapshot_is_kept(visit):
    learner, _ = visit()
    url, _ = saved_entry(learner)
    learner.reload()
    assert learner.python_restored() is True
    assert list(learner.page.evaluate(ENTRIES)) == [url]


@pytest.mark.parametrize("how", ["garbage", "truncated"])
def test_a_damaged_snapshot_is_dropped_and_a_good_one_saved(visit, exercises, how):
    learner, _ = visit()
    url, size = saved_entry(learner)
    learner.page.evaluate(DAMAGE, {"url": url, "how": how})

    learner.reload()
    assert learner.python_restored() is False
    assert learner.solve("__add__", exercises["add"].solutions["add"]) == "pass"
    expect(learner.widget.locator(".mg-status")).to_have_attribute("data-state", "ready")
    assert saved_entry(learner, larger_than=size // 2)[0] == url  # whole again, not the damaged one

    learner.reload()
    assert learner.python_restored() is True
