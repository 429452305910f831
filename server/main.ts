// `npm run library-server -- <config.json> [command]` (or `node server/main.ts …`, Node 24, no
// Electron). Without a command: runs the library server until SIGTERM or SIGINT, logging JSON lines
// on standard output. The commands IT runs beside it, with the same configuration:
//   enrol-desk --name "<desk>" [--hours <h>] [--print-secret]   a one-time enrolment code for a desk
//                                                                (or, with --print-secret, the desk's
//                                                                workstation id and secret, for IT's tooling)
//   revoke-desk <workstation id>                                 the desk is refused within a minute
//   list-desks                                                   every enrolled desk, revoked ones marked
//   sync-now                                                     the leader syncs the catalog at once
//   staff-add, staff-reset-pin, staff-disable, staff-enable, staff-list, purge-audit
//                                                                staff accounts and the audit trail (staff-commands.ts)
// The configuration file's path is the first argument or LIBRARY_SERVER_CONFIG (LIBRARY_MIRROR_CONFIG,
// its earlier name, still works). A configuration it refuses is said on standard error, and the
// exit code is 2.
import { parseArgs } from 'node:util';
import type { Logger } from '../electron/node/logging/index.ts';
import { clientConfig, openSession } from '../electron/node/library-mirror/database.ts';
import { migrate } from '../electron/node/library-mirror/schema.ts';
import { errorText } from '../electron/node/logging/tls-refusal.ts';
import { jsonLinesLog } from './json-lines-log.ts';
import { fromEnvironment, loadConfig, type LoadedConfig } from './config.ts';
import { DATABASE_CA_WORDS } from './leadership.ts';
import { startLibraryServer, type RunningService } from './service.ts';
import { requestSync } from './service-state.ts';
import { WorkstationAdmin } from './workstations.ts';
import { runStaffCommand, STAFF_COMMANDS } from './staff-commands.ts';

const USAGE = `Usage: node server/main.ts <config.json> [enrol-desk --name "<desk>" [--hours <h>] [--print-secret] | revoke-desk <id> | list-desks | sync-now
   | staff-add --name "<name>" [--role desk-staff|manager] | staff-reset-pin --name "<name>" | staff-disable --name "<name>" | staff-enable --name "<name>"
   | staff-list | purge-audit --credentials <file> [--keep-days <n>]]
   (or LIBRARY_SERVER_CONFIG=<config.json> node server/main.ts [command])`;

const args = process.argv.slice(2);
if (args[0] === '--help') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const COMMANDS: string[] = ['enrol-desk', 'revoke-desk', 'list-desks', 'sync-now', ...STAFF_COMMANDS];
const path = args[0] !== undefined && !COMMANDS.includes(args[0]) ? args.shift() : fromEnvironment(process.env, 'CONFIG');
if (!path) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

let loaded: LoadedConfig;
try {
  loaded = loadConfig(path);
} catch (error) {
  // A configuration it cannot work with (a file refused, an address that is not https): said once, exit 2.
  process.stderr.write(`library-server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

const [command, ...rest] = args;
if (command === undefined) serve(loaded);
else await runCommand(command, rest, loaded);

function serve(config: LoadedConfig): void {
  const secrets = [config.credentials.password, config.credentials.databasePassword, clientConfig({ url: config.config.database.url }).password]
    .filter((s): s is string => typeof s === 'string' && s !== '');
  const log: Logger = jsonLinesLog({ secrets: () => secrets, instance: config.config.instanceName });
  let service: RunningService;
  try {
    service = startLibraryServer(config, { log });
  } catch (error) {
    // A configuration it cannot work with (an address that is not https): said once, exit 2.
    process.stderr.write(`library-server: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    void service.stop().then(() => {
      log.info('stopped', {});
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function runCommand(name: string, options: string[], config: LoadedConfig): Promise<void> {
  const say = (line: string): void => { process.stdout.write(`${line}\n`); };
  const fail = (line: string): never => {
    process.stderr.write(`library-server ${name}: ${line}\n`);
    process.exit(2);
  };
  let db;
  try {
    db = await openSession(config.database, { applicationName: `lending-desk-library-server ${name}` });
  } catch (error) {
    return fail(`the database could not be reached (${errorText(error, DATABASE_CA_WORDS)}).`);
  }
  try {
    // A command may come before the server's first start: the tables it needs are made the same way.
    await migrate(db);
    if ((STAFF_COMMANDS as readonly string[]).includes(name)) {
      await runStaffCommand(name as (typeof STAFF_COMMANDS)[number], options, db, config, { say, fail });
      return;
    }
    const admin = new WorkstationAdmin(db);
    switch (name) {
      case 'enrol-desk': {
        const { values } = parseArgs({ args: options, options: { name: { type: 'string' }, hours: { type: 'string' }, 'print-secret': { type: 'boolean' } } });
        if (!values.name) fail('name the desk: enrol-desk --name "Front desk 2".');
        if (values['print-secret']) {
          const enrolled = await admin.enrolDirectly(values.name as string);
          // One line of letters, digits, '-', '_' and one ':': no shell or cmd quoting can change it.
          say(`Workstation ${enrolled.id} (${enrolled.name}) is enrolled. Its credential for that desk's keychain, as one line (docs/library-server.md, "Enrolling and revoking desks"):`);
          say(`${enrolled.id}:${enrolled.secret}`);
          return;
        }
        const hours = values.hours === undefined ? undefined : Number(values.hours);
        if (hours !== undefined && !(Number.isFinite(hours) && hours > 0 && hours <= 24 * 30)) fail('--hours is a number of hours from 1 to 720.');
        const { code, expiresAt } = await admin.createCode(values.name as string, hours);
        say(`Enrolment code for "${(values.name as string).trim()}": ${code}`);
        say(`Type it on that desk (Settings, or the screen that says the desk is not enrolled) before ${new Date(expiresAt).toISOString()}. It works once.`);
        return;
      }
      case 'revoke-desk': {
        const [id] = options;
        if (!id) fail('name the workstation: revoke-desk ws-0123456789ab (list-desks shows them).');
        if (await admin.revoke(id as string)) say(`Workstation ${id} is revoked: the library server refuses it within a minute.`);
        else fail(`no enrolled workstation ${id} that is not revoked already.`);
        return;
      }
      case 'list-desks': {
        for (const w of await admin.list()) {
          const seen = w.lastSeenAt === undefined ? 'never seen' : `last seen ${new Date(w.lastSeenAt).toISOString()}`;
          say(`${w.id}\t${w.name}\tenrolled ${new Date(w.enrolledAt).toISOString()}\t${w.revokedAt === undefined ? seen : `REVOKED ${new Date(w.revokedAt).toISOString()}`}`);
        }
        return;
      }
      case 'sync-now':
        await requestSync(db);
        say('The instance that leads starts a catalog sync now (its log says sync-requested, then each run).');
        return;
      default:
        fail(`no such command.\n${USAGE}`);
    }
  } finally {
    await db.end().catch(() => {});
  }
}
