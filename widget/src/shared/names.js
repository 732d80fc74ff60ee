/**
 * microgpt's names (course/assets.py writes them beside Python's archives), fetched for the
 * microgpt widget's session and for a lesson page whose blocks train on them.
 */
const NAMES_URL = new URL(`../${PYTHON_ASSETS.names}`, import.meta.url); // the bundle: assets/course/

/** The names' text; rejects saying which file answered what. */
export async function fetchNames() {
  const response = await fetch(NAMES_URL);
  if (!response.ok) throw new Error(`${NAMES_URL.pathname} answered ${response.status}`);
  return response.text();
}
