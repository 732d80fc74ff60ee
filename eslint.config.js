// ESLint for the course's JavaScript: the recommended rules, with the globals of where each
// file runs. `make lint` runs it (and Prettier for formatting).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "site/", "bench/out/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["widget/src/**/*.js"],
    languageOptions: {
      globals: { ...globals.browser, PYTHON_ASSETS: "readonly", COURSE_WORKER: "readonly", VIZ_WORKER: "readonly" },
    },
    // a view or a handler that grows past a screen is split into named parts
    rules: { "max-lines-per-function": ["error", { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  { files: ["widget/src/worker/**/*.js", "widget/isolate.js"], languageOptions: { globals: globals.worker } },
  { files: ["widget/isolate.js"], languageOptions: { globals: globals.serviceworker } },
  { files: ["**/*.mjs", "eslint.config.js"], languageOptions: { globals: globals.node } },
  { files: ["bench/**/*.js", "site_tests/engines/journey.js"], languageOptions: { globals: globals.browser } },
  // puppeteer's page.evaluate callbacks run in the page
  { files: ["site_tests/engines/bridge.mjs"], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
];
