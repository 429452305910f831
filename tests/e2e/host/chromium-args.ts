// Debian's Chromium where it stands in for the desk's Electron (the e2e specs' Chromium host, the
// window benches): which binary (CHROMIUM_PATH, else Debian's), and its command line: no sandbox
// or GPU on a headless machine, nothing of its own on the network, and the switches the desk's
// main sets on Electron's Chromium.
import { chromiumSwitchArgs } from '../../../electron/main/app/chromium-switches.ts';

export const STAND_IN_CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic',
  ...chromiumSwitchArgs(),
];

/** Launch options for the stand-in Chromium (`args`: another command line, as the keypress floor's comparison needs). */
export function standInChromium(args: readonly string[] = STAND_IN_CHROMIUM_ARGS): { executablePath: string; args: string[] } {
  return { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...args] };
}
