/**
 * Whether the learner erased the course's data (page/erase.js), in this tab or in another tab of
 * the same course: from then on the page keeps nothing in the browser's storage (work stays in
 * memory until the tab is closed), so that erasing leaves nothing behind however long any of
 * its tabs stays open.
 */
let erased = false;
// the course's other open tabs hear of an erase (their next save would write work back); the
// <head>'s early start, bundled without a module's URL, only reads what is erased
const channel = (() => {
  try {
    const site = new URL("../../", import.meta.url).pathname; // this bundle: assets/course/
    const opened = new BroadcastChannel(`micrograd:${site}:erased`);
    opened.onmessage = ({ data }) => data === "erased" && (erased = true);
    opened.unref?.(); // Node (the tests): an open channel would keep the process alive
    return opened;
  } catch {
    return null;
  }
})();

export const wasErased = () => erased;

export function markErased() {
  erased = true;
  channel?.postMessage("erased");
}

/**
 * Whether a storage key, database or cache of this browser is the course's, which Erase my data
 * deletes (page/erase.js), by its exact beginnings, so that a course at "/" never takes those of
 * another at "/other/": `micrograd:<path>:…` (work, lesson blocks' edits, snapshots, the offline
 * copy), the loaded-ahead mark (`micrograd:<path>assets/…`), the learner's name, and the theme's
 * settings (mkdocs-material: `<path>.__palette`, say). `site` is the course's root URL.
 */
export function erasable(name, site) {
  const path = site.pathname;
  return (
    name.startsWith(`micrograd:${path}:`) ||
    name.startsWith(`micrograd:${path}assets/`) ||
    name === `micrograd-learner:${site.href}` ||
    name.startsWith(`${path}.__`)
  );
}
