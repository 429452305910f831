// Chromium's own behaviour the desk changes, set on the command line before the app is ready.
//
// DeferRendererTasksAfterInput (on by default in current Chromium): after a discrete input event
// (a keydown, a keyup) the page's tasks wait until the next frame is drawn. A keystroke in the
// Collection's search box asks for rows, and their answer is such a task: it came back, waited for
// a frame that had nothing new to draw, and was drawn a frame later. Measured in the window bench
// (bench/collection-window.ts, the same typing on the same 1M-title mirror, four rounds in turns):
// keypress → rows p50 29.9–35.1 ms with the feature, 24.9–28.5 ms without (docs/benchmarks.md,
// "Keypress → rows").
// Turning it off gives back Chromium's behaviour before the feature; nothing of the desk relies on it.

/** Chromium features the desk turns off. */
export const DISABLED_CHROMIUM_FEATURES: readonly string[] = ['DeferRendererTasksAfterInput'];

/** The part of Electron's app.commandLine this needs. */
export interface SwitchLine {
  getSwitchValue(name: string): string;
  appendSwitch(name: string, value?: string): void;
}

/**
 * Adds the desk's disabled features to the command line, keeping any the line already disables
 * (Chromium reads one `--disable-features`: a second would replace the first).
 */
export function applyChromiumSwitches(line: SwitchLine): void {
  line.appendSwitch('disable-features', disabledFeatures(line.getSwitchValue('disable-features')));
}

/** The same switches as arguments, for a Chromium that stands in for the desk's (the e2e host, the window bench). */
export function chromiumSwitchArgs(): string[] {
  return [`--disable-features=${disabledFeatures('')}`];
}

function disabledFeatures(already: string): string {
  const names = already.split(',').map((name) => name.trim()).filter((name) => name !== '');
  for (const name of DISABLED_CHROMIUM_FEATURES) if (!names.includes(name)) names.push(name);
  return names.join(',');
}
