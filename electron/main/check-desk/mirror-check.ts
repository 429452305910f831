// The library mirror, checked from this desk as IT's policy names it: the desks' role signs in with
// the password in the keychain (over the same verified TLS a fill uses: desk-session.ts), a fill's
// first batch is read — and nothing is written: the desk's own copy is left alone — and the
// server's last catalog sync is read from the status desks may see.
import pg from 'pg';
import { changesSince, DEFAULT_CHANGES_LIMIT } from '../../node/library-mirror/changes.ts';
import { deskSessionConfig, libraryFailure, mirrorLabel, trustedCa, type LibraryMirrorTarget } from '../../node/library-mirror/desk-session.ts';
import { SCHEMA } from '../../node/library-mirror/schema-name.ts';
import type { CheckLine } from './check-line.ts';

export interface MirrorCheck {
  target: LibraryMirrorTarget;
  /** The role's password from the keychain (undefined: none kept there). */
  password: string | undefined;
  /** The desk's libraries: the batch is read for them, as a fill reads it. */
  libraries: readonly number[];
}

export async function checkMirror(check: MirrorCheck): Promise<CheckLine[]> {
  const what = `library mirror ${mirrorLabel(check.target)}`;
  let client: pg.Client | undefined;
  try {
    client = new pg.Client(deskSessionConfig(check.target, check.password, 'lending-desk check-desk'));
    client.on('error', () => {});
    await client.connect();
  } catch (error) {
    await client?.end().catch(() => {});
    return [{ ok: false, what, detail: libraryFailure(error, check.target).message }];
  }
  const lines: CheckLine[] = [{ ok: true, what, detail: `the role ${check.target.user} signed in (TLS verified with ${trustedCa(check.target.caFile)})` }];
  try {
    const batch = await changesSince(client, 0, { libraries: [...check.libraries], limit: DEFAULT_CHANGES_LIMIT });
    const { rows } = await client.query<{ last_success_at: Date | null; in_progress: boolean }>(
      `SELECT last_success_at, in_progress FROM ${SCHEMA}.sync_status WHERE source = 'global'`);
    const last = rows[0]?.last_success_at;
    const synced = last ? `last catalog sync ${last.toISOString()}` : rows[0]?.in_progress ? 'the first catalog sync is under way' : 'no catalog sync yet';
    if (batch.changes.length === 0) {
      lines.push({ ok: false, what, detail: `a fill's first batch is empty: the library server has not filled the mirror for libraries ${check.libraries.join(', ') || '(none named)'} yet (${synced}; its log says first-full-sync-done when it has)` });
    } else {
      const tables = (['titles', 'entitlements', 'availability'] as const)
        .map((table) => [table, batch.changes.filter((c) => c.table === table).length] as const).filter(([, n]) => n > 0)
        .map(([table, n]) => `${n} ${table}`).join(', ');
      lines.push({ ok: true, what, detail: `a fill's first batch read (${batch.changes.length} changes: ${tables}${batch.more ? '; more follow' : ''}); ${synced}` });
    }
  } catch (error) {
    lines.push({ ok: false, what, detail: `a fill's first batch could not be read: ${libraryFailure(error, check.target).message}` });
  } finally {
    await client.end().catch(() => {});
  }
  return lines;
}
