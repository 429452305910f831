// The floor under the window bench's keypress → rows (issue #30): the same Chromium, typing and
// timing with no desk at all (bench/support/keypress-floor-page.ts), with Chromium's defaults and
// with the desk's switches, in turns.
// `node bench/keypress-floor.ts [rounds]`
import { quantile } from './figures.ts';
import { STAND_IN_CHROMIUM_ARGS } from '../tests/e2e/host/chromium-args.ts';
import { chromiumSwitchArgs } from '../electron/main/app/chromium-switches.ts';
import { startFloorServer, typeOnTheFloor } from './support/keypress-floor-page.ts';

const rounds = Number(process.argv[2] ?? 2);
const server = await startFloorServer();
const deskSwitches = new Set(chromiumSwitchArgs());
const variants = [
  { name: "Chromium's defaults", args: STAND_IN_CHROMIUM_ARGS.filter((arg) => !deskSwitches.has(arg)) },
  { name: "the desk's switches", args: STAND_IN_CHROMIUM_ARGS },
];
const figures: Record<string, { p50: number; p95: number; n: number }[]> = {};
try {
  for (let round = 0; round < rounds; round++) {
    for (const { name, args } of variants) {
      const ms = await typeOnTheFloor(server.url, args);
      const figure = { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), n: ms.length };
      (figures[name] ??= []).push(figure);
      console.log(`keypress → rows with no desk (${name}), round ${round + 1}: p50 ${figure.p50.toFixed(1)} ms, p95 ${figure.p95.toFixed(1)} ms over ${figure.n}`);
    }
  }
} finally {
  server.close();
}
console.log(`KEYPRESS-FLOOR-JSON ${JSON.stringify(figures)}`);
