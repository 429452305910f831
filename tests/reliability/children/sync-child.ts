// A catalog sync in a process of its own, so the crash-safety run and the engine's tests can kill
// it with SIGKILL at any point. It prints one line per stored page ("page <source> <done>") and
// "done" at the end, so the parent knows whether its kill landed mid-run and where.
// argv: <store> <JSON connection> <JSON request>, where <store> is the desk mirror's database
// path (the mirror kept as the desk keeps it: the sync here, the file held by the owner thread),
// or a JSON store spec (tests/unit/node/sync/stores.ts): {"kind":"desk","databasePath":…} or
// {"kind":"library","target":{…}} (the library mirror in PostgreSQL, this process its leader,
// as the library server's leader runs the same engine).
import { DeskMirror } from '../../../electron/main/mirror/desk-mirror.ts';
import { openSession, type DatabaseTarget } from '../../../electron/node/library-mirror/database.ts';
import { PartnerClient } from '../../../electron/node/partner/client.ts';
import { runSync, type SyncProgress, type SyncRequest } from '../../../electron/node/sync/engine.ts';
import { LeaderWrites } from '../../../server/leader-writes.ts';
import { waitToLead } from '../../../server/leadership.ts';
import { LibraryPageStore } from '../../../server/page-store.ts';

const [store, connection, requestText] = process.argv.slice(2) as [string, string, string];
const { baseUrl, username, password, wsApi } = JSON.parse(connection) as { baseUrl: string; username: string; password: string; wsApi: string };
const client = new PartnerClient({ baseUrl, wsApi, credentials: { username, password } });
const request = JSON.parse(requestText) as SyncRequest;
const spec = (store.startsWith('{') ? JSON.parse(store) : { kind: 'desk', databasePath: store }) as
  { kind: 'desk'; databasePath: string } | { kind: 'library'; target: DatabaseTarget };
const progress = (p: SyncProgress): void => { process.stdout.write(`page ${p.source} ${p.done}\n`); };

if (spec.kind === 'desk') {
  const mirror = new DeskMirror({ databasePath: spec.databasePath, staff: client, background: client.withPriority('background') });
  await mirror.syncNow(request, progress);
  await mirror.close();
} else {
  // A killed leader's session ends with its process: the lock is free once the server notices.
  const session = await openSession(spec.target, { applicationName: 'sync child' });
  await waitToLead(session);
  const pages = new LibraryPageStore(new LeaderWrites(session));
  await runSync({ client: client.withPriority('background'), store: pages, now: Date.now, signal: new AbortController().signal, onProgress: progress, onePageAtATime: true }, request);
  await session.end();
}
process.stdout.write('done\n');
