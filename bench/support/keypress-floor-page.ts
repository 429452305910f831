// The floor under the window bench's keypress → rows (issue #30): the same Chromium, the same
// typing and the same timing (the page notes the keydown and, from an animation-frame loop of its
// own, the first frame whose rows answer the text in the box), but no desk at all. The page is a
// text box and a table; each keystroke posts the text to a loopback server that answers at once
// with a first page of 40 made-up rows (about the size of the desk's), and the page writes 14 of
// them into the table. No framework, no contract, no mirror: what is left is Chromium's request
// path and the frame. `npm run bench:keypress-floor` runs it alone, with Chromium's defaults and
// the desk's switches in turns; `npm run bench` runs it once with the desk's switches right after
// the window, so each run shows this machine's floor beside the desk's figure.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { STAND_IN_CHROMIUM_ARGS, standInChromium } from '../../tests/e2e/host/chromium-args.ts';
import { typeWordsTimed } from './typing.ts';

const WORDS = ['Summer Shadows', 'Hannah Martin', 'Crimson Compass', 'Storms', 'Witness for', 'Salt Lake', 'Voyages', 'Dune', '9784812', 'Yusufs'];
const ROWS = Array.from({ length: 40 }, (_, i) => ({
  contentId: 1000 + i, title: `A title of some length, number ${i}`, artist: 'An Author', format: 'EBOOK', year: 2001, purchaseModel: 'FLEX', active: true,
  coverImageUrl: `https://covers.example/${i}.jpg`, availability: { readAt: 1, status: 'BORROW', availableCopies: 2, totalCopies: 3 },
}));
const ANSWER = JSON.stringify({ ok: true, value: { total: 1000, atLeast: true, rows: ROWS } });

const PAGE = `<!doctype html><meta charset="utf-8"><input id="box" aria-label="Search"><table id="rows"></table><script>
const bench = { timed: null }; window.bench = bench;
let keydownAt = 0, answered = null, timed = true, before = '';
const box = document.getElementById('box');
// The text before the key: until the key's letter is in the box, the rows still answer it.
document.addEventListener('keydown', () => { keydownAt = performance.now(); timed = false; before = box.value; }, true);
box.addEventListener('input', async (event) => {
  const text = event.target.value;
  const answer = await (await fetch('/rows', { method: 'POST', body: JSON.stringify({ text }) })).json();
  const table = document.getElementById('rows');
  table.replaceChildren(...answer.value.rows.slice(0, 14).map((row) => {
    const tr = document.createElement('tr');
    for (const cell of [text, row.title, row.artist, row.format]) tr.insertCell().textContent = cell;
    return tr;
  }));
  answered = text;
});
const frame = () => {
  if (!timed && box.value !== before && answered === box.value) { bench.timed = { text: box.value, ms: performance.now() - keydownAt }; timed = true; }
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
</script>`;

/** The floor's page on a loopback server of its own. */
export async function startFloorServer(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    if (req.url === '/rows') {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** Keypress → rows over every word on the floor's page at `url`, in ms, in a Chromium started with `args` (the desk's, unless told). */
export async function typeOnTheFloor(url: string, args: readonly string[] = STAND_IN_CHROMIUM_ARGS): Promise<number[]> {
  const browser = await chromium.launch(standInChromium(args));
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(url);
    await page.click('#box');
    const timeKey = async (typed: string): Promise<number> => {
      const handle = await page.waitForFunction((text) => {
        const { timed } = (window as unknown as { bench: { timed: { text: string; ms: number } | null } }).bench;
        return timed?.text === text ? timed.ms : false;
      }, typed, { polling: 'raf' });
      return (await handle.jsonValue()) as number;
    };
    return await typeWordsTimed(page, WORDS, timeKey, () => page.fill('#box', ''));
  } finally {
    await browser.close();
  }
}

