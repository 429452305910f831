// The desk's headless check for IT before a rollout (`--check-desk`, docs/library-server.md §9):
// on the desk PC, as its OS user, with no one at it and no window, that this desk's policy,
// keychain records and network reach the library server — each instance, its certificate
// against the policy's CA, this desk's enrolment — and the library mirror — its password, a
// fill's first batch. Plain functions of the machine policy and the keychain (the switch itself
// is electron/main/app/check-desk-run.ts). It reads, and writes nothing; no secret is ever in
// what it says.
import { readFileSync } from 'node:fs';
import { DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';
import { typedPassword } from '../desk/library-fill-settings.ts';
import { parseWorkstationRecord, type WorkstationRecord } from '../desk/library-server-settings.ts';
import { ignoredLine, type MachinePolicy } from '../policy/index.ts';
import { serverUrls } from '../policy/library-server-policy.ts';
import { trustedCa } from '../../node/library-mirror/desk-session.ts';
import type { CheckLine } from './check-line.ts';
import { checkInstance } from './instance-check.ts';
import { checkMirror } from './mirror-check.ts';

export type { CheckLine };

export interface DeskCheckInput {
  machine: MachinePolicy;
  keychain: DeskKeychain;
  /** Where this OS keeps IT's policy, to name it when there is none. */
  policyPlace: string;
}

const fail = (what: string, detail: string): CheckLine => ({ ok: false, what, detail });
const pass = (what: string, detail: string): CheckLine => ({ ok: true, what, detail });
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A keychain record, or why it could not be read (the keychain unreachable: a Secret Service not running, a locked login keychain). */
async function read(keychain: DeskKeychain, record: (typeof DESK_RECORDS)[keyof typeof DESK_RECORDS]): Promise<{ text?: string; error?: string }> {
  try {
    const text = await keychain.read(record);
    return text === undefined ? {} : { text };
  } catch (error) {
    return { error: messageOf(error) };
  }
}

export async function checkDesk({ machine, keychain, policyPlace }: DeskCheckInput): Promise<CheckLine[]> {
  const { policy, problems, source } = machine;
  if (problems.ignored) return [fail('policy', `${source ?? policyPlace}: ${ignoredLine(problems.ignored)}`)];
  if (!policy) return [fail('policy', `none at ${policyPlace}: this desk works alone. Name libraryServer (and libraryMirror) in IT's policy (docs/it-deployment.md, "A desk in a library").`)];
  const server = policy.libraryServer;
  const mirror = policy.libraryMirror;
  if (!server && !mirror) return [fail('policy', `${source ?? policyPlace} names neither libraryServer nor libraryMirror: this desk works alone.`)];

  const profiles = policy.profiles ?? [];
  const libraries = [...new Set(profiles.flatMap((p) => p.libraries.map((l) => l.libraryId)))];
  const named = [server ? 'libraryServer' : '', mirror ? 'libraryMirror' : ''].filter(Boolean).join(' and ');
  const lines: CheckLine[] = [pass('policy', profiles.length > 0
    ? `${source}; ${named}; libraries ${libraries.join(', ')} (profile${profiles.length > 1 ? 's' : ''} ${profiles.map((p) => p.id).join(', ')})`
    : `${source}; ${named}; no profile in the policy, so no library is checked against what the server serves`)];

  let workstation: WorkstationRecord | undefined;
  if (server) {
    const saved = await read(keychain, DESK_RECORDS.workstation);
    workstation = parseWorkstationRecord(saved.text);
    if (saved.error) lines.push(fail('keychain', `the keychain could not be reached: ${saved.error}`));
    else if (workstation) lines.push(pass('keychain', `the workstation credential (${workstation.workstationId})`));
    else if (saved.text !== undefined) lines.push(fail('keychain', `the record ${DESK_RECORDS.workstation} is there but is not a workstation credential: put the line enrol-desk --print-secret printed there, or enrol this desk with a code`));
    else lines.push(fail('keychain', `no workstation credential (${DESK_RECORDS.workstation}): enrol this desk (docs/library-server.md §8)`));
  }
  let password: string | undefined;
  if (mirror) {
    const saved = await read(keychain, DESK_RECORDS.libraryMirrorPassword);
    password = typedPassword(saved.text);
    if (saved.error) lines.push(fail('keychain', `the keychain could not be reached: ${saved.error}`));
    else if (password !== undefined) lines.push(pass('keychain', "the library mirror's password"));
    else lines.push(fail('keychain', `no password for the library mirror (${DESK_RECORDS.libraryMirrorPassword})${mirror.passwordEntry === 'settings' ? ': IT types it in Settings → Library mirror, or puts it there with its tools' : ': IT puts it there with its tools (docs/it-deployment.md)'}`));
  }

  if (server) {
    let ca: string | undefined;
    let readable = true;
    if (server.caFile !== undefined) {
      try {
        ca = readFileSync(server.caFile, 'utf8');
      } catch (error) {
        readable = false;
        lines.push(fail('library server', `its CA file ${server.caFile} could not be read (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`));
      }
    }
    if (readable) {
      for (const url of serverUrls(server)) {
        lines.push(...await checkInstance({ url, ...(ca === undefined ? {} : { ca }), trusted: trustedCa(server.caFile), ...(workstation ? { workstation } : {}), libraries }));
      }
    }
  }
  if (mirror) {
    const { host, port, database, user, caFile } = mirror;
    lines.push(...await checkMirror({ target: { host, port, database, user, ...(caFile === undefined ? {} : { caFile }) }, password, libraries }));
  }
  return lines;
}

/** The report as IT reads it: a heading, one line per check, the verdict; and the exit code (0: all is well). */
export function deskCheckReport(lines: readonly CheckLine[], heading: string): { text: string; exitCode: number } {
  const failed = lines.filter((l) => !l.ok).length;
  const body = lines.map((l) => `${(l.ok ? 'ok' : 'FAILED').padEnd(8)}${l.what}: ${l.detail}`);
  const verdict = failed === 0 ? 'All checks passed.' : `${failed} check${failed === 1 ? '' : 's'} failed.`;
  return { text: [heading, ...body, verdict, ''].join('\n'), exitCode: failed === 0 && lines.length > 0 ? 0 : 1 };
}
