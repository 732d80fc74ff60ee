/**
 * Whether the learner erased the course's data in this tab (page/erase.js): from then on the
 * page keeps nothing in the browser's storage (work stays in memory until the tab is closed),
 * so that erasing leaves nothing behind however long the tab stays open.
 */
let erased = false;

export const wasErased = () => erased;

export function markErased() {
  erased = true;
}
