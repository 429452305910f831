// The desk's Chromium host (tests/e2e/host: the same DeskService main runs, answering the
// contract over loopback) in a process of its own, for the in-the-window benchmark: the
// benchmark process then measures the page, not itself. Prints {"url"} when ready and, when
// told to stop (a line on stdin), {"peakRssMiB"} before exiting.
// argv: <user data folder>
import { createInterface } from 'node:readline';
import { startDeskHost } from '../tests/e2e/host/desk-host.ts';

const [userDataDir] = process.argv.slice(2) as [string];
const host = await startDeskHost({ userDataDir, keychainService: 'Lending Desk bench' });
process.stdout.write(`${JSON.stringify({ url: host.url })}\n`);
const input = createInterface({ input: process.stdin });
input.once('line', () => {
  void host.close().finally(() => {
    process.stdout.write(`${JSON.stringify({ peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
    input.close();
    process.exit(0);
  });
});
