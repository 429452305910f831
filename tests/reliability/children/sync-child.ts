// A catalog sync in a process of its own, so the crash-safety run can kill it with SIGKILL at
// any point. It prints one line per stored page ("page <source> <done>") and "done" at the end,
// so the parent knows whether its kill landed mid-run and where. The mirror is kept as the desk
// keeps it: the sync here, the file held by the owner thread.
// argv: <database> <JSON connection> <JSON request>
import { DeskMirror } from '../../../electron/main/mirror/desk-mirror.ts';
import type { SyncRequest } from '../../../electron/node/sync/engine.ts';
import { PartnerClient } from '../../../electron/node/partner/client.ts';

const [databasePath, connection, request] = process.argv.slice(2) as [string, string, string];
const { baseUrl, username, password, wsApi } = JSON.parse(connection) as { baseUrl: string; username: string; password: string; wsApi: string };
const client = new PartnerClient({ baseUrl, wsApi, credentials: { username, password } });
const mirror = new DeskMirror({ databasePath, desk: client, background: client.withPriority('background') });
await mirror.syncNow(JSON.parse(request) as SyncRequest, (progress) => {
  process.stdout.write(`page ${progress.source} ${progress.done}\n`);
});
await mirror.close();
process.stdout.write('done\n');
