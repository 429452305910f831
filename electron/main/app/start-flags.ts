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
  const found = new Set<string>();
  for (const name of switchNames(args, platform)) if (isRefused(name)) found.add(`--${name}`);
  for (const name of CHECKED_SWITCHES) if (hasSwitch(name)) found.add(`--${name}`);
  return [...found];
}

/** Every switch name on the line, lower-cased, in each form Chromium reads (`--`, `-`, and `/` on Windows). */
function switchNames(args: readonly string[], platform: NodeJS.Platform): string[] {
  const prefix = platform === 'win32' ? /^(--|-|\/)/ : /^(--|-)/;
  return args.flatMap((arg) => {
    const match = prefix.exec(arg);
    return match ? [arg.slice(match[0].length).split('=')[0]!.toLowerCase()] : [];
  });
}

// ---- Network-altering options (issue #21) ----
// Switches and variables that change where the desk's requests go, what certificates it trusts,
// or that write its traffic (or its TLS keys) to a file: a proxy of someone's choosing could read
// and change every patron lookup, and a net log or key log hands them the session. IT sets
// proxies in the operating system (Electron's net.fetch follows it); a packaged desk started with
// any of these quits and says so. Unpackaged builds keep them (development, tests).

const NETWORK_SWITCHES = new Set([
  // the proxy family
  'proxy-server', 'proxy-pac-url', 'proxy-bypass-list', 'no-proxy-server', 'proxy-auto-detect', 'winhttp-proxy-resolver',
  // where names resolve and which hosts are dialled
  'host-resolver-rules', 'host-rules',
  // certificate and TLS overrides
  'ignore-certificate-errors', 'ignore-certificate-errors-spki-list', 'ignore-urlfetcher-cert-requests', 'allow-insecure-localhost',
  'unsafely-treat-insecure-origin-as-secure', 'ssl-version-min', 'ssl-version-max', 'cipher-suite-blacklist', 'ssl-key-log-file',
  'origin-to-force-quic-on',
  // writing the traffic down
  'log-net-log',
]);

/**
 * Variables with the same effect: TLS keys written out (Chromium honours SSLKEYLOGFILE), or Node's
 * certificate checks turned off. (NODE_EXTRA_CA_CERTS is not refused: Electron reads it only where
 * the NODE_OPTIONS fuse is on (electron/electron#41689), and the packaged build turns that fuse off,
 * so it adds nothing to the Node TLS the library mirror's connection uses; IT may set it
 * machine-wide for other programs.)
 */
const NETWORK_VARIABLES = ['SSLKEYLOGFILE', 'NODE_TLS_REJECT_UNAUTHORIZED'] as const;

function isNetworkSwitch(name: string): boolean {
  return NETWORK_SWITCHES.has(name) || name.startsWith('net-log-');
}

/** Names to ask Chromium's own parser about as well. */
export const CHECKED_NETWORK_SWITCHES: readonly string[] = [...NETWORK_SWITCHES, 'net-log-capture-mode', 'net-log-max-size'];

/**
 * The network-altering switches among `args` (as `--name`, in every form Chromium reads, as
 * refusedStartFlags does) and the variables set in `env` (by name; an empty value is unset).
 */
export function refusedNetworkOptions(
  args: readonly string[], hasSwitch: (name: string) => boolean, platform: NodeJS.Platform, env: Record<string, string | undefined>,
): string[] {
  const found = new Set<string>();
  for (const name of switchNames(args, platform)) if (isNetworkSwitch(name)) found.add(`--${name}`);
  for (const name of CHECKED_NETWORK_SWITCHES) if (hasSwitch(name)) found.add(`--${name}`);
  // Windows' variable names ignore case.
  const set = (name: string): boolean => Object.entries(env).some(([key, value]) => (platform === 'win32' ? key.toUpperCase() === name : key === name) && value !== undefined && value !== '');
  for (const name of NETWORK_VARIABLES) if (set(name)) found.add(name);
  return [...found];
}
