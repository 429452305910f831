// The floor under the window bench's keypress → rows (issue #30): the same Chromium, the same
// typing and the same timing (the page notes the keydown and, from an animation-frame loop of its
// own, the first frame whose rows answer the text in the box), but no desk at all. The page is a
// text box and a table; each keystroke posts the text to a loopback server that answers at once
// with a first page of 40 made-up rows (about the size of the desk's), and the page writes 14 of
// them into the table. No framework, no contract, no mirror: what is left is Chromium's request
// path and the frame. Run with Chromium's defaults and with the desk's switches, in turns.
// `node bench/keypress-floor.ts [rounds]`
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { quantile } from './figures.ts';
import { STAND_IN_CHROMIUM_ARGS, standInChromium } from '../tests/e2e/host/chromium-args.ts';
import { chromiumSwitchArgs } from '../electron/main/app/chromium-switches.ts';
import { typeWordsTimed } from './support/typing.ts';

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

function startServer(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/rows') {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Keypress → rows over every word, in ms, in a Chromium started with `args`. */
async function typeWords(url: string, args: readonly string[]): Promise<number[]> {
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

const rounds = Number(process.argv[2] ?? 2);
const server = await startServer();
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const deskSwitches = new Set(chromiumSwitchArgs());
const variants = [
  { name: "Chromium's defaults", args: STAND_IN_CHROMIUM_ARGS.filter((arg) => !deskSwitches.has(arg)) },
  { name: "the desk's switches", args: STAND_IN_CHROMIUM_ARGS },
];
const figures: Record<string, { p50: number; p95: number; n: number }[]> = {};
try {
  for (let round = 0; round < rounds; round++) {
    for (const { name, args } of variants) {
      const ms = await typeWords(url, args);
      const figure = { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), n: ms.length };
      (figures[name] ??= []).push(figure);
      console.log(`keypress → rows with no desk (${name}), round ${round + 1}: p50 ${figure.p50.toFixed(1)} ms, p95 ${figure.p95.toFixed(1)} ms over ${figure.n}`);
    }
  }
} finally {
  server.close();
}
console.log(`KEYPRESS-FLOOR-JSON ${JSON.stringify(figures)}`);
