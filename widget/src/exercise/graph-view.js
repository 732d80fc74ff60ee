/** "Show the graph" for a check of a result (filled in below). */
export function graphButton() {
  return null;
}
