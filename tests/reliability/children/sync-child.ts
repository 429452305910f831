// A catalog sync in a process of its own, so the crash-safety run can kill it with SIGKILL at
// any point. It prints one line per stored page ("page <phase> <done>") and "done" at the end,
// so the parent knows whether its kill landed mid-run and where.
// argv: <database> <JSON connection> <JSON request>
import { runJob } from '../../../electron/mirror/sync-job.ts';

const [databasePath, connection, request] = process.argv.slice(2) as [string, string, string];
await runJob(
  { databasePath, connection: JSON.parse(connection), job: { kind: 'sync', request: JSON.parse(request) }, ratePerMinute: 1_000_000 },
  (progress) => { process.stdout.write(`page ${progress.phase.replace(/\s+/g, '_')} ${progress.done}\n`); },
);
process.stdout.write('done\n');
