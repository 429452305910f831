// `--check-desk`: IT's headless check of this desk before a rollout (docs/library-server.md §9),
// handled by main before anything of the desk starts — no window, no single-instance lock (the
// desk may be open meanwhile), no settings, no mirror. It reads the machine policy as a start
// does, this user's keychain records, and reaches the library server and the library mirror
// (electron/main/check-desk/); prints the report, writes it to check-desk.txt in the log folder
// (a windowed program's output does not reach a console on Windows), and exits 0 when all is well.
import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { checkDesk, deskCheckReport } from '../check-desk/check-desk.ts';
import { keychainDeskRecords } from '../credentials/desk-keychain.ts';
import { LINUX_POLICY_FILE, MACOS_POLICY_FILE, WINDOWS_POLICY_KEY, type MachinePolicy } from '../policy/index.ts';

export const CHECK_DESK_SWITCH = '--check-desk';

/** Whether IT asked for the check (the command line after the executable). */
export const wantsDeskCheck = (args: readonly string[]): boolean => args.some((arg) => arg.toLowerCase() === CHECK_DESK_SWITCH);

/** The report's file, in the log folder. */
export const checkReportFile = (userData: string): string => join(userData, 'logs', 'check-desk.txt');

export interface DeskCheckRun {
  userData: string;
  version: string;
  platform: NodeJS.Platform;
  /** The machine policy, read as a start reads it. */
  policy: () => MachinePolicy;
  /** A training copy's keychain name (LENDING_DESK_KEYCHAIN_SERVICE), as the desk itself uses. */
  keychainService?: string;
  print: (text: string) => void;
  exit: (code: number) => void;
  now?: () => Date;
}

const policyPlace = (platform: NodeJS.Platform): string =>
  (platform === 'win32' ? `HKLM\\${WINDOWS_POLICY_KEY}` : platform === 'darwin' ? MACOS_POLICY_FILE : LINUX_POLICY_FILE);

export async function runDeskCheck(run: DeskCheckRun): Promise<void> {
  const heading = `Lending Desk ${run.version} check-desk, ${(run.now?.() ?? new Date()).toISOString()}, as ${userInfo().username}`;
  let report: { text: string; exitCode: number };
  try {
    const lines = await checkDesk({
      machine: run.policy(),
      keychain: keychainDeskRecords(run.keychainService ? { service: run.keychainService } : {}),
      policyPlace: policyPlace(run.platform),
    });
    report = deskCheckReport(lines, heading);
  } catch (error) {
    report = { text: `${heading}\nFAILED  the check itself: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
  }
  run.print(report.text);
  const file = checkReportFile(run.userData);
  try {
    mkdirSync(join(run.userData, 'logs'), { recursive: true });
    writeFileSync(file, report.text);
  } catch (error) {
    run.print(`(The report could not be written to ${file}: ${error instanceof Error ? error.message : String(error)})\n`);
  }
  run.exit(report.exitCode);
}
