// A recorded replay page in headless Chromium (test/support/chromium.ts): it loads without a
// console error or exception, its What was checked table equals the run's claims, Play (pressed
// from the keyboard) types the first command out progressively, with prefers-reduced-motion it
// shows the whole transcript at once, and at 375 and 1280 px wide the page body does not scroll
// sideways and the terminal frame stays inside the viewport. Screenshots go to `shots`
// (.cache/e2e-pages/, git-ignored).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import type { Browser, Page } from "../support/chromium.ts";
import type { ScenarioResult } from "../scenarios/runner.ts";

interface Layout {
  scrollWidth: number;
  innerWidth: number;
  frame: { left: number; right: number };
}

const LAYOUT = (box: string) => `(() => { const f = document.querySelector(${JSON.stringify(box)}).getBoundingClientRect();
  return { scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth), innerWidth: window.innerWidth, frame: { left: f.left, right: f.right } }; })()`;
const ROWS = `[...document.querySelectorAll("#checked tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent))`;
const TRANSCRIPT = `document.getElementById("transcript").textContent`;

/** The body does not scroll sideways and `box` (the terminal frame; the list on the index) is inside the viewport. */
async function expectLayout(page: Page, width: number, what: string, box = ".frame"): Promise<void> {
  const l = await page.eval<Layout>(LAYOUT(box));
  expect(l.innerWidth, `${what}: the page does not fit, the browser laid it out ${l.innerWidth} px wide`).toBe(width);
  expect(l.scrollWidth, `${what}: the page body scrolls sideways`).toBeLessThanOrEqual(width);
  expect(l.frame.left, `${what}: ${box} starts left of the viewport`).toBeGreaterThanOrEqual(0);
  expect(l.frame.right, `${what}: ${box} ends right of the viewport`).toBeLessThanOrEqual(width);
}

/** Presses Play with the keyboard (focus, Enter), as a person without a mouse would. */
async function pressPlay(page: Page): Promise<void> {
  expect(
    await page.eval<string>(`(() => { const b = document.getElementById("play"); b.focus(); return document.activeElement === b && !b.hidden ? b.tagName : "not focusable"; })()`),
  ).toBe("BUTTON");
  await page.press("Enter");
}

/** Samples the transcript until the first command is typed out; returns the samples seen. */
async function typedSamples(page: Page, command: string): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + 15_000;
  for (;;) {
    const t = await page.eval<string>(TRANSCRIPT);
    seen.push(t);
    if (t.includes(command) || Date.now() > deadline) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function checkReplayPage(browser: Browser, file: string, result: ScenarioResult, shots: string): Promise<void> {
  const id = result.scenario.id;
  const url = pathToFileURL(file).href;
  const first = result.steps[0]!.step.run.split("\n")[0]!;
  const command = `$ ${first}`;
  const page = await browser.page();
  try {
    await page.viewport(1280, 900);
    await page.goto(url);
    const whole = await page.eval<string>(TRANSCRIPT);
    expect(whole, "the whole transcript is in the page before anything runs").toContain(command);
    expect(await page.eval<string[][]>(ROWS), `${id}: What was checked`).toEqual(result.checks.map((c) => [String(c.step), c.claim, c.held ? "yes" : "no"]));
    await expectLayout(page, 1280, `${id} at 1280 px`);
    await page.screenshot(path.join(shots, `${id}-1280.png`));

    await pressPlay(page);
    const samples = await typedSamples(page, command);
    const typing = samples.filter((t) => !t.includes(command) && t.includes("$ ") && command.startsWith(t.slice(t.lastIndexOf("$ "))));
    expect(samples.at(-1), `${id}: Play never typed the first command out`).toContain(command);
    expect(typing.length, `${id}: the first command appeared at once, not typed (${samples.length} samples)`).toBeGreaterThan(2);
    expect(samples[0]!.length, "Play starts from an empty frame").toBeLessThan(whole.length);

    await page.viewport(375, 800, true);
    await page.goto(url);
    await pressPlay(page);
    expect(await page.eval<string>(TRANSCRIPT), `${id}: with reduced motion Play shows it all at once`).toBe(whole);
    await expectLayout(page, 375, `${id} at 375 px`);
    await page.screenshot(path.join(shots, `${id}-375.png`));
    expect(page.errors, `${id}: console errors`).toEqual([]);
  } finally {
    await page.close();
  }
}

/** index.html lists each recorded page by its title, links to it, and fits a phone's width. */
export async function checkIndexPage(browser: Browser, file: string, ids: readonly string[]): Promise<void> {
  const page = await browser.page();
  try {
    await page.viewport(375, 800);
    await page.goto(pathToFileURL(file).href);
    expect(await page.eval<string[]>(`[...document.querySelectorAll("ul.runs a")].map((a) => a.getAttribute("href"))`)).toEqual([...ids].sort().map((id) => `${id}.html`));
    await expectLayout(page, 375, "index.html at 375 px", "ul.runs");
    await page.screenshot(path.join(path.dirname(file), "index-375.png"));
    expect(page.errors, "index.html: console errors").toEqual([]);
  } finally {
    await page.close();
  }
}
