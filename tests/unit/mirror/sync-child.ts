// A sync in a process of its own, so a test can kill it with SIGKILL at any point.
// argv: <database> <JSON connection> <JSON request>
import { runJob } from '../../../electron/mirror/sync-job.ts';

const [databasePath, connection, request] = process.argv.slice(2) as [string, string, string];
await runJob({ databasePath, connection: JSON.parse(connection), job: { kind: 'sync', request: JSON.parse(request) }, ratePerMinute: 1_000_000 }, () => {});
