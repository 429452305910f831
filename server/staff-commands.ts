// The server's commands for staff accounts and the audit trail (issue #32), beside IT's desk
// commands in main.ts:
//   staff-add --name "<name>" [--role desk-staff|manager]   the PIN is asked for (twice), or read from standard input
//   staff-reset-pin --name "<name>"                          a new PIN; wrong tries forgotten, open shifts ended
//   staff-disable --name "<name>" / staff-enable --name "<name>"
//   staff-list
//   purge-audit --credentials <file> [--keep-days <n>]       with the maintenance role (its password in the file):
//                                                            what is older than the library's retention goes, and the purge is recorded
// A PIN never goes on the command line (where every user of the machine can read it).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { openSession } from '../electron/node/library-mirror/database.ts';
import type { LoadedConfig } from './config.ts';
import { AUDIT_SCHEMA } from './audit-trail.ts';
import { StaffAdmin, STAFF_ROLES, type StaffRole } from './staff.ts';

export const STAFF_COMMANDS = ['staff-add', 'staff-reset-pin', 'staff-disable', 'staff-enable', 'staff-list', 'purge-audit'] as const;

/** A PIN typed twice at a terminal, or one line read from standard input when IT's tooling pipes it. */
async function readPin(): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  try {
    if (!process.stdin.isTTY) return (await lines.question('')).trim();
    const first = (await lines.question('PIN (at least 6 characters, not a common one): ')).trim();
    const again = (await lines.question('The same PIN again: ')).trim();
    if (first !== again) throw new Error('The two PINs typed differ.');
    return first;
  } finally {
    lines.close();
  }
}

export interface CommandIo { say: (line: string) => void; fail: (line: string) => never }

/** Runs one of STAFF_COMMANDS on `db` (the server's role); purge-audit opens a session of its own, as the maintenance role. */
export async function runStaffCommand(name: (typeof STAFF_COMMANDS)[number], args: string[], db: pg.ClientBase, config: LoadedConfig, io: CommandIo): Promise<void> {
  const { values } = parseArgs({
    args, options: { name: { type: 'string' }, role: { type: 'string' }, credentials: { type: 'string' }, 'keep-days': { type: 'string' } },
  });
  const admin = new StaffAdmin(db);
  const named = (): string => values.name ?? io.fail(`name the member of staff: ${name} --name "Ana Lopez".`);
  const show = (m: { name: string; role: string; disabledAt?: number }): string => `${m.name} (${m.role})${m.disabledAt ? ', disabled' : ''}`;
  switch (name) {
    case 'staff-add': {
      const role = (values.role ?? 'desk-staff') as StaffRole;
      if (!STAFF_ROLES.includes(role)) io.fail(`--role is one of ${STAFF_ROLES.join(', ')}.`);
      const member = await admin.add(named(), role, await readPin());
      io.say(`${show(member)} can sign in at the library's desks.`);
      return;
    }
    case 'staff-reset-pin':
      io.say(`${show(await admin.resetPin(named(), await readPin()))}: new PIN set; wrong tries forgotten; open shifts ended.`);
      return;
    case 'staff-disable':
      io.say(`${show(await admin.disable(named()))}: signs in nowhere; open shifts ended.`);
      return;
    case 'staff-enable':
      io.say(`${show(await admin.enable(named()))}: may sign in again.`);
      return;
    case 'staff-list':
      for (const m of await admin.list()) io.say(`${m.name}\t${m.role}\t${m.disabledAt ? `disabled ${new Date(m.disabledAt).toISOString()}` : 'active'}\tPIN set ${new Date(m.pinSetAt).toISOString()}`);
      return;
    case 'purge-audit': {
      if (!values.credentials) io.fail('give the maintenance role\'s credentials file: purge-audit --credentials /etc/lending-desk/library-server/maintenance.json.');
      const keepDays = values['keep-days'] === undefined ? config.config.audit.retentionDays : Number(values['keep-days']);
      if (!Number.isInteger(keepDays) || keepDays < 1) io.fail('--keep-days is a whole number of days, 1 or more.');
      const maintenance = JSON.parse(readFileSync(values.credentials as string, 'utf8')) as { user?: string; password?: string };
      if (!maintenance.user || !maintenance.password) io.fail('the credentials file holds {"user": …, "password": …} of the maintenance role.');
      const url = new URL(config.database.url);
      url.username = encodeURIComponent(maintenance.user as string);
      url.password = '';
      const session = await openSession({ ...config.database, url: url.href, password: maintenance.password as string }, { applicationName: 'lending-desk-library-server purge-audit' });
      try {
        const { rows } = await session.query<{ removed: string }>(`SELECT ${AUDIT_SCHEMA}.purge($1, $2) AS removed`, [keepDays, process.env.USER ?? 'maintenance']);
        io.say(`Removed ${rows[0]?.removed ?? 0} audit entries older than ${keepDays} days; the purge is recorded in the trail.`);
      } finally {
        await session.end().catch(() => {});
      }
    }
  }
}
