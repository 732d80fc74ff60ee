// Drives Firefox for the Python site tests, through WebDriver BiDi (puppeteer-core): Playwright
// for Python can drive only its own build of Firefox, which cannot be downloaded here.
//
//   node site_tests/engines/bridge.mjs <firefox executable>
//
// One JSON command per line on stdin, one JSON answer per line on stdout:
//   {"op": "goto", "url": ..., "inject": <JS source>}   opens a page, runs `inject` in it
//   {"op": "reload", "inject": ...}                      reloads, runs `inject` again
//   {"op": "call", "name": ..., "args": [...]}           awaits courseJourney[name](...args)
//   {"op": "evaluate", "source": ...}                     awaits an expression of the page's
// Answers are {"value": ...} or {"error": message}. The browser closes when stdin ends.
import { createInterface } from "node:readline";
import puppeteer from "puppeteer-core";

const [executablePath] = process.argv.slice(2);
const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath,
  headless: true,
  // no updates, telemetry or other requests outside the machine
  extraPrefsFirefox: { "app.update.enabled": false, "network.captive-portal-service.enabled": false },
});
const page = await browser.newPage();

const loaded = async (inject) => {
  await page.waitForFunction(() => document.readyState === "complete", { timeout: 60_000 });
  await page.evaluate(inject);
};

const ops = {
  goto: async ({ url, inject }) => {
    await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    await loaded(inject);
  },
  reload: async ({ inject }) => {
    await page.reload({ waitUntil: "load", timeout: 60_000 });
    await loaded(inject);
  },
  call: ({ name, args }) => page.evaluate((n, a) => window.courseJourney[n](...a), name, args),
  evaluate: ({ source }) => page.evaluate(source),
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const command = JSON.parse(line);
  let answer;
  try {
    answer = { value: (await ops[command.op](command)) ?? null };
  } catch (error) {
    answer = { error: String(error?.message ?? error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
await browser.close();
