// A catalog sync in a process of its own, so the crash-safety run can kill it with SIGKILL at
// any point. It prints one line per stored page ("page <source> <done>") and "done" at the end,
// so the parent knows whether its kill landed mid-run and where. The mirror is written in this
// process's own thread, as the product's writer thread writes it.
// argv: <database> <JSON connection> <JSON request>
import { inThreadWriter } from '../../../electron/mirror/mirror-writer.ts';
import { runJob } from '../../../electron/mirror/sync-job.ts';
import { PartnerClient } from '../../../electron/partner/client.ts';

const [databasePath, connection, request] = process.argv.slice(2) as [string, string, string];
const { baseUrl, username, password, wsApi } = JSON.parse(connection) as { baseUrl: string; username: string; password: string; wsApi: string };
const client = new PartnerClient({ baseUrl, wsApi, credentials: { username, password } }).withPriority('background');
const mirror = inThreadWriter(databasePath);
await runJob({ client, mirror, now: Date.now }, { kind: 'sync', request: JSON.parse(request) }, (progress) => {
  process.stdout.write(`page ${progress.source} ${progress.done}\n`);
});
await mirror.close();
process.stdout.write('done\n');
