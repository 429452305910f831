// Start-up switches that open the app to a debugger: Chromium's remote debugging (a DevTools
// endpoint for any local process), Node's inspector and V8's flags. The fuses already stop
// Node's --inspect in a packaged build; Chromium's --remote-debugging-port has no fuse, so a
// packaged app started with any of these quits instead of serving a patron under a debugger.
// Unpackaged builds keep them: Playwright's _electron drives the app through the inspector.

const REFUSED_NAMES = new Set(['remote-debugging-port', 'remote-debugging-pipe', 'remote-debugging-address', 'js-flags']);

function isRefused(name: string): boolean {
  return REFUSED_NAMES.has(name) || name.startsWith('inspect');
}

/** Names to ask Chromium's own parser about as well (app.commandLine.hasSwitch). */
export const CHECKED_SWITCHES: readonly string[] = [...REFUSED_NAMES, 'inspect', 'inspect-brk', 'inspect-port', 'inspect-wait', 'inspect-publish-uid'];

/**
 * The refused switches among `args` (the command line after the executable), as `--name`.
 * Chromium reads a switch after `--` or `-` (and `/` on Windows, where names ignore case);
 * every form counts, in any case, wherever it stands.
 */
export function refusedStartFlags(args: readonly string[], hasSwitch: (name: string) => boolean, platform: NodeJS.Platform): string[] {
  const prefix = platform === 'win32' ? /^(--|-|\/)/ : /^(--|-)/;
  const found = new Set<string>();
  for (const arg of args) {
    const match = prefix.exec(arg);
    if (!match) continue;
    const name = arg.slice(match[0].length).split('=')[0]!.toLowerCase();
    if (isRefused(name)) found.add(`--${name}`);
  }
  for (const name of CHECKED_SWITCHES) if (hasSwitch(name)) found.add(`--${name}`);
  return [...found];
}
