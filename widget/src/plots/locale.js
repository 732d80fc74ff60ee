// uPlot formats numbers with `new Intl.NumberFormat(navigator.language)` as its module loads, and
// that throws where the browser's language is not a BCP 47 tag: WebKitGTK started under the C
// locale says "C". Imported before uPlot, this gives such a page a tag uPlot can use.
try {
  new Intl.NumberFormat(navigator.language);
} catch {
  Object.defineProperty(navigator, "language", { value: "en-US", configurable: true });
}
