// In the window: a keypress in the Collection's search box to its rows painted, in Debian's
// Chromium on the built renderer, with the desk's host (DeskService over loopback, as in the
// e2e specs) in a process of its own serving a mirror of the 1M-title sandbox. Staff type
// words from real titles a letter at a time, about ten letters a second; for every keypress
// the page notes the keydown, then the first animation frame at which the rows on screen (shown,
// not hidden) are the answer for the text now in the box (the answer seen on its way to the
// store, its first title in the first row): that frame paints them. The page times that frame
// itself, from an animation-frame loop of its own, so the driver's round trips (the key sent, the
// wait set up) are in no figure.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'playwright-core';
import { EVENT_NAMES, METHOD_NAMES } from '../electron/shared/contract.ts';
import { mirrorPath } from '../electron/main/connection/mirror-files.ts';
import { SANDBOX_PROFILE_ID } from '../electron/main/desk/areas/connections-area.ts';
import { IN_PROCESS_ORIGIN } from '../electron/main/sandbox/service.ts';
import { installHostBridge } from '../tests/e2e/host/bridge-script.ts';
import { TEST_DESK_PIN } from '../tests/support/desk-pin.ts';
import { standInChromium } from '../tests/e2e/host/chromium-args.ts';
import { typeWordsTimed } from './support/typing.ts';

const ROOT = join(import.meta.dirname, '..');

export interface WindowFigures { keyToRowsMs: number[]; firstRowsMs: number; hostPeakRssMiB?: number }

/**
 * Page side: remembers each keydown and the Collection answer the store is about to receive, and
 * at every animation frame checks whether the rows on screen now answer the text in the box: the
 * first frame that finds them is the keystroke's (the page times it, so the figure does not wait
 * for the driver to ask).
 */
function installMeasurement(): void {
  type Answered = { text: string; first: string | null; total: number };
  const state = { keydownAt: 0, answered: undefined as Answered | undefined, rowsAt: undefined as undefined | { text: string; ms: number } };
  (window as unknown as { deskBench: typeof state }).deskBench = state;
  document.addEventListener('keydown', () => {
    state.keydownAt = performance.now();
    state.rowsAt = undefined;
  }, true);
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await realFetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith('/__contract/collectionBrowse')) {
      const args = (JSON.parse(String(init?.body ?? '{}')) as { args?: { text?: string; exactCount?: boolean } }).args ?? {};
      if (!args.exactCount) {
        const json = response.json.bind(response);
        response.json = async () => {
          const result = await json() as { ok: boolean; value?: { total: number; rows: { title?: string }[] } };
          if (result.ok && result.value) state.answered = { text: args.text ?? '', first: result.value.rows[0]?.title ?? null, total: result.value.total };
          return result;
        };
      }
    }
    return response;
  };
  /** The rows on screen (shown, not hidden) are the answer for the text in the box. */
  const rowsAnswer = (typed: string): boolean => {
    if (state.answered?.text !== typed.trim()) return false;
    if (state.answered.first === null) return true;
    const row = document.getElementById('collection-row-0');
    const first = row?.querySelector('.col-title button')?.textContent?.trim() ?? null;
    return row !== null && first === state.answered.first && getComputedStyle(row).visibility === 'visible';
  };
  const frame = (): void => {
    const box = document.getElementById('collection-text') as HTMLInputElement | null;
    if (state.keydownAt > 0 && state.rowsAt === undefined && box && rowsAnswer(box.value)) {
      state.rowsAt = { text: box.value, ms: performance.now() - state.keydownAt };
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** Milliseconds from the last keydown to the first frame whose rows answer `text` (timed by the page). */
async function keyToRows(page: Page, text: string): Promise<number> {
  const handle = await page.waitForFunction((typed) => {
    const { rowsAt } = (window as unknown as { deskBench: { rowsAt?: { text: string; ms: number } } }).deskBench;
    return rowsAt?.text === typed ? rowsAt.ms : false;
  }, text, { polling: 'raf', timeout: 30_000 });
  return (await handle.jsonValue()) as number;
}

/** The rows answer `text` (a box filled, not typed: no keydown to time from). */
async function rowsFor(page: Page, text: string): Promise<void> {
  await page.waitForFunction((typed) => {
    const { answered } = (window as unknown as { deskBench: { answered?: { text: string; first: string | null } } }).deskBench;
    if (answered?.text !== typed.trim()) return false;
    const row = document.getElementById('collection-row-0');
    return answered.first === null || (row?.querySelector('.col-title button')?.textContent?.trim() === answered.first && getComputedStyle(row).visibility === 'visible');
  }, text, { polling: 'raf', timeout: 30_000 });
}

function buildRenderer(): void {
  const built = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`electron-vite build failed: ${built.stderr || built.stdout}`);
}

/** Moves `builtMirror` into a fresh desk's data folder as the sandbox profile's mirror, starts the desk, types `searches`. */
export async function benchCollectionWindow(builtMirror: string, dataDir: string, searches: string[]): Promise<WindowFigures> {
  buildRenderer();
  // The built-in sandbox profile's mirror, named as its connection names it (mirror-files.ts), in
  // the mirrors' folder the desk host gives it (tests/support/node-desk.ts).
  const desksMirror = mirrorPath(join(dataDir, 'catalog'), SANDBOX_PROFILE_ID, IN_PROCESS_ORIGIN);
  mkdirSync(dirname(desksMirror), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(builtMirror + suffix)) renameSync(builtMirror + suffix, desksMirror + suffix);

  const host = spawn(process.execPath, [join(import.meta.dirname, 'desk-host-process.ts'), dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: host.stdout });
  const exited = new Promise<never>((_, reject) => host.once('exit', (code) => reject(new Error(`the desk host exited (${code})`))));
  exited.catch(() => {});
  const nextLine = () => Promise.race([new Promise<string>((resolve) => lines.once('line', resolve)), exited]);
  const { url } = JSON.parse(await nextLine()) as { url: string };
  let figures: Omit<WindowFigures, 'hostPeakRssMiB'>;
  try {
    figures = await typeInTheWindow(url, searches);
  } finally {
    host.stdin.write('stop\n');
  }
  const last = await nextLine().catch(() => undefined);
  host.kill();
  lines.close();
  const peak = last ? (JSON.parse(last) as { peakRssMiB?: number }).peakRssMiB : undefined;
  return { ...figures, ...(peak === undefined ? {} : { hostPeakRssMiB: peak }) };
}

async function typeInTheWindow(url: string, searches: string[]): Promise<Omit<WindowFigures, 'hostPeakRssMiB'>> {
  const { chromium } = await import('playwright-core'); // loaded only here: it is large, and the mirror's memory is measured before
  const browser = await chromium.launch(standInChromium());
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(installHostBridge, { methods: [...METHOD_NAMES], events: [...EVENT_NAMES] });
    await page.addInitScript(installMeasurement);
    await page.goto(url);
    await page.getByRole('button', { name: 'Use the built-in sandbox' }).click();
    // The shared desk PIN alone (issue #35: no typed name); the desk host gives a fresh desk the test PIN.
    await page.getByLabel('PIN', { exact: true }).fill(TEST_DESK_PIN);
    await page.keyboard.press('Enter');
    await page.getByLabel('Library card').waitFor();

    const opened = performance.now();
    await page.getByRole('tab', { name: 'Collection' }).click();
    await page.locator('#collection-row-0 .col-title button').waitFor({ timeout: 120_000 });
    const firstRowsMs = performance.now() - opened;

    const box = page.locator('#collection-text');
    const clear = async (): Promise<void> => {
      await box.fill('');
      await rowsFor(page, '');
    };
    // Warm-up: the first search builds the search lanes; staff pay it once after a sync.
    await box.click();
    await page.keyboard.type('a');
    await keyToRows(page, 'a');
    await clear();

    const keyToRowsMs = await typeWordsTimed(page, searches, (typed) => keyToRows(page, typed), clear);
    return { keyToRowsMs, firstRowsMs };
  } finally {
    await browser.close();
  }
}
