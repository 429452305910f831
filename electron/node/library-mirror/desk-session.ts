// A desk's session with the library mirror (issue #25), as IT's policy names it: the desks'
// read-only role over verified TLS (database.ts), its password from the keychain. Used by the
// mirror's owner for each fill (electron/mirror-owner/library-fill.ts) and by the desk's headless
// check for IT (electron/main/check-desk/), so both connect, and fail, the same way.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type pg from 'pg';
import { DeskError } from '../../shared/desk-error.ts';
import { certificateRefusal, errorText, isCertificateError } from '../logging/tls-refusal.ts';
import { clientConfig } from './database.ts';

/** Where the library mirror is (IT's policy, electron/main/policy/library-mirror-policy.ts). */
export interface LibraryMirrorTarget {
  host: string;
  port: number;
  database: string;
  /** The desks' read-only role. */
  user: string;
  /** The CA that issued the server's certificate (absent: the public CAs Node carries, never the OS's store). */
  caFile?: string;
}

/** A connection that does not answer in this long is unreachable (a stopped server refuses at once). */
const CONNECT_TIMEOUT_MS = 15_000;
/** A batch the server has not answered in this long: the fill stops, and the next one tries again. */
const QUERY_TIMEOUT_MS = 120_000;

/** How the Sync view, the log and the check name the library mirror (never the password). */
export const mirrorLabel = (target: LibraryMirrorTarget): string => `${target.host}:${target.port}/${target.database}`;

/** What the CA is that a certificate is checked against, in words for IT. */
export const trustedCa = (caFile: string | undefined): string =>
  (caFile === undefined ? 'the public CAs built into Lending Desk (no caFile in the policy)' : `the CA file ${caFile}`);

/** The session's settings: the CA file read now, the password given; refused (a DeskError) when either is missing. */
export function deskSessionConfig(target: LibraryMirrorTarget, password: string | undefined, applicationName = 'lending-desk desk'): pg.ClientConfig {
  const host = target.host.includes(':') && !target.host.startsWith('[') ? `[${target.host}]` : target.host;
  let ca: string | undefined;
  if (target.caFile !== undefined) {
    try {
      ca = readFileSync(target.caFile, 'utf8');
    } catch (error) {
      throw DeskError.because('invalid-input', 'library-mirror.ca-unreadable', { file: target.caFile, code: (error as NodeJS.ErrnoException).code ?? 'error' });
    }
  }
  if (password === undefined) throw DeskError.because('unauthorized', 'library-mirror.no-password');
  const url = `postgres://${encodeURIComponent(target.user)}@${host}:${target.port}/${encodeURIComponent(target.database)}`;
  return {
    // Without the policy's CA: Node's own public CAs, named, so that NODE_EXTRA_CA_CERTS (a variable
    // any user of the PC can set for their own programs) adds no root the desk trusts.
    ...clientConfig({ url, password, ca: ca ?? rootCertificates.join('\n') }, { applicationName }),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  };
}

/** Why the library mirror could not be read, as staff read it; the server's words (in ours for a certificate) stay in the log's message. */
export function libraryFailure(error: unknown, target: LibraryMirrorTarget): DeskError {
  if (error instanceof DeskError) return error;
  const where = { server: mirrorLabel(target) };
  const code = String((error as { code?: unknown }).code ?? '');
  // The server's own words go to the log (the English message), not to staff as "the service's message": it is not the partner's.
  const message = errorText(error, trustedCa(target.caFile));
  if (isCertificateError(error) || /certificate|does not support SSL/i.test(message)) {
    const why = certificateRefusal(error, trustedCa(target.caFile)) ?? message;
    return new DeskError('network', `The library mirror's certificate was refused: ${why}.`, undefined, { reason: 'library-mirror.certificate', params: where });
  }
  // 28P01: wrong password; 28000: no entry lets this role in (pg_hba.conf).
  if (code === '28P01' || code === '28000') {
    return new DeskError('unauthorized', `The library mirror refused the desks' role (${message}).`, undefined, { reason: 'library-mirror.password', params: { ...where, user: target.user } });
  }
  // 42501: not allowed to read; 3D000: no such database; 42P01: no mirror tables there.
  if (code === '42501' || code === '3D000' || code === '42P01' || code === '3F000') {
    return new DeskError('server', `The library mirror's database could not be read (${message}).`, undefined, { reason: 'library-mirror.refused', params: where });
  }
  return new DeskError('network', `The library mirror could not be reached (${message}).`, undefined, { reason: 'library-mirror.unreachable', params: where });
}
