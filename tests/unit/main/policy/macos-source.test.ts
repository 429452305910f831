// The macOS policy from /Library/Managed Preferences/<bundle id>.plist. The file and its folders
// are real and pass the same ownership checks as on Linux; plutil (only on a Mac) is a stand-in
// that answers with what `plutil -convert json -o - -` prints for the same input.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMachinePolicy, MACOS_POLICY_FILE } from '../../../../electron/main/policy/index.ts';
import { PLUTIL, plutilToJson, type ProcessResult, type RunProcess } from '../../../../electron/main/policy/macos-source.ts';
import { APP_ID } from '../../../../electron-builder.config.ts';

// What an MDM "custom settings" payload for org.lendingdesk.console leaves in managed preferences
// (shown as XML; mdmclient usually writes the binary form, which plutil reads the same way).
const PLIST = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict>
  <key>idleLockMinutes</key><integer>3</integer>
  <key>sandboxOffered</key><false/>
  <key>updates</key><dict><key>mode</key><string>auto</string><key>url</key><string>https://updates.example.org/desk/</string></dict>
</dict></plist>
`;
const PLUTIL_JSON = '{"idleLockMinutes":3,"sandboxOffered":false,"updates":{"mode":"auto","url":"https:\\/\\/updates.example.org\\/desk\\/"}}';

let root: string;
let file: string;
let calls: { file: string; args: string[]; input: Buffer }[];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'policy-mac-'));
  chmodSync(root, 0o755);
  const folder = join(root, 'Library', 'Managed Preferences');
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  chmodSync(join(root, 'Library'), 0o755);
  chmodSync(folder, 0o755);
  file = join(folder, `${APP_ID}.plist`);
  writeFileSync(file, PLIST, { mode: 0o644 });
  calls = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** plutil as recorded: JSON for the plist above, its error text for anything else. */
function recordedPlutil(answers: Map<string, ProcessResult> = new Map()): RunProcess {
  return (command, args, { input }) => {
    calls.push({ file: command, args, input });
    const recorded = answers.get(input.toString('utf8'));
    if (recorded) return recorded;
    if (input.toString('utf8') === PLIST) return { status: 0, stdout: Buffer.from(`${PLUTIL_JSON}\n`), stderr: Buffer.alloc(0) };
    return { status: 1, stdout: Buffer.alloc(0), stderr: Buffer.from('<stdin>: Property List error: Unexpected character b at line 1 / JSON error: JSON text did not start with array or object and option to allow fragments not set. around line 1, column 0.\n') };
  };
}

function load(run: RunProcess = recordedPlutil()) {
  return loadMachinePolicy({ platform: 'darwin', macSigned: true, mac: { path: file, trustRoot: root, toJson: plutilToJson(run) } });
}

describe('macOS managed preferences', () => {
  it('live where MDM puts them for the app\'s bundle id', () => {
    expect(MACOS_POLICY_FILE).toBe(`/Library/Managed Preferences/${APP_ID}.plist`);
  });

  it('are converted by /usr/bin/plutil from exactly the bytes that were checked', () => {
    expect(load()).toEqual({
      source: file,
      problems: {},
      policy: { version: 1, idleLockMinutes: 3, sandboxOffered: false, updates: { mode: 'auto', url: 'https://updates.example.org/desk/' } },
    });
    expect(calls).toEqual([{ file: PLUTIL, args: ['-convert', 'json', '-o', '-', '-'], input: readFileSync(file) }]);
  });

  it('are absent when MDM delivered none: an unmanaged desk, plutil not run', () => {
    rmSync(file);
    expect(load()).toEqual({ problems: {} });
    expect(calls).toEqual([]);
  });

  it('are refused when not root\'s alone, before plutil sees them', () => {
    chownSync(file, 501, 20);
    expect(load().problems.ignored).toEqual({ reason: 'policy.wrong-owner', params: { source: file, owner: 501, expected: 'root' } });
    chownSync(file, 0, 0);
    chmodSync(join(root, 'Library', 'Managed Preferences'), 0o777);
    expect(load().problems.ignored).toMatchObject({ reason: 'policy.writable-by-others' });
    expect(calls).toEqual([]);
  });

  it('are refused when plutil cannot read them, with plutil\'s words', () => {
    writeFileSync(file, 'bplist00 truncated');
    expect(load().problems.ignored).toEqual({
      reason: 'policy.not-plist',
      params: { source: file, detail: expect.stringMatching(/^<stdin>: Property List error: Unexpected character/) },
    });
  });

  it('are refused when they hold a value JSON cannot carry (a date), as plutil reports it', () => {
    const withDate = PLIST.replace('<key>sandboxOffered</key>', '<key>since</key><date>2025-01-01T00:00:00Z</date><key>sandboxOffered</key>');
    writeFileSync(file, withDate);
    const run = recordedPlutil(new Map([[withDate, { status: 1, stdout: Buffer.alloc(0), stderr: Buffer.from('<stdin>: invalid object in plist for destination format\n') }]]));
    expect(load(run).problems.ignored).toMatchObject({ reason: 'policy.not-plist', params: { detail: '<stdin>: invalid object in plist for destination format' } });
  });

  it('are refused when plutil is missing or hangs', () => {
    const missing: RunProcess = () => ({ status: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: Object.assign(new Error('spawnSync /usr/bin/plutil ENOENT'), { code: 'ENOENT' }) });
    expect(load(missing).problems.ignored).toMatchObject({ reason: 'policy.not-plist', params: { detail: 'ENOENT' } });
    const hung: RunProcess = () => ({ status: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: Object.assign(new Error('spawnSync /usr/bin/plutil ETIMEDOUT'), { code: 'ETIMEDOUT' }) });
    expect(load(hung).problems.ignored).toMatchObject({ reason: 'policy.not-plist', params: { detail: 'ETIMEDOUT' } });
  });

  it('set aside a configuration profile\'s Payload keys, and list any other unknown key as a setting this version does not know', () => {
    const withEnvelope = `${PLUTIL_JSON.slice(0, -1)},"PayloadUUID":"5B0B9A4E-0000-4000-8000-000000000000","PayloadType":"${APP_ID}"}`;
    const run = recordedPlutil(new Map([[PLIST, { status: 0, stdout: Buffer.from(withEnvelope), stderr: Buffer.alloc(0) }]]));
    expect(load(run).problems).toEqual({});
    const withUnknown = `${PLUTIL_JSON.slice(0, -1)},"IdleLockMinutes":3}`;
    const unknown = recordedPlutil(new Map([[PLIST, { status: 0, stdout: Buffer.from(withUnknown), stderr: Buffer.alloc(0) }]]));
    expect(load(unknown).problems).toEqual({ unknownSettings: ['IdleLockMinutes'] });
  });

  it('may turn on auto updates in a build signed with a Developer ID (Squirrel.Mac checks the team signature), never in an unsigned one', () => {
    expect(load().policy?.updates).toEqual({ mode: 'auto', url: 'https://updates.example.org/desk/' });
    expect(load().problems.updatesRefused).toBeUndefined();
    const unsigned = loadMachinePolicy({ platform: 'darwin', mac: { path: file, trustRoot: root, toJson: plutilToJson(recordedPlutil()) } });
    expect(unsigned.policy?.updates).toEqual({ mode: 'auto', url: 'https://updates.example.org/desk/' });
    expect(unsigned.problems.updatesRefused).toEqual({ reason: 'updates.unsigned-mac-build', params: {} });
  });
});
