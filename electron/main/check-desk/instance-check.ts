// One instance of the library server, checked from this desk as IT's policy names it: it is
// reached, its certificate verifies against the policy's CA (and who issued it, until when), and
// this desk's workstation credential is accepted — through the desk's own link (the same agent,
// CA and refusals as every partner call) — with the libraries that instance serves.
import { connect, rootCertificates, type PeerCertificate } from 'node:tls';
import { isIP } from 'node:net';
import { LibraryServerLink } from '../connection/library-server-fetch.ts';
import { certificateRefusal, errorText } from '../../node/logging/tls-refusal.ts';
import { isDeskError } from '../../shared/desk-error.ts';
import type { WorkstationRecord } from '../desk/library-server-settings.ts';
import type { CheckLine } from './check-line.ts';

/** How long an instance may take to accept a connection and finish the handshake. */
const HANDSHAKE_TIMEOUT_MS = 5_000;

export interface InstanceCheck {
  url: string;
  /** PEM of the policy's CA file; absent: the public CAs Node carries. */
  ca?: string;
  /** What the CA is, in words (the file's path, or the public CAs). */
  trusted: string;
  /** This desk's credential, when the keychain holds one. */
  workstation?: WorkstationRecord;
  /** The libraries this desk's profiles name: each must be served. */
  libraries: readonly number[];
}

const nameOf = (cert: PeerCertificate, key: 'subject' | 'issuer'): string => {
  const part = cert[key] as Record<string, string | string[] | undefined> | undefined;
  const pick = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
  return pick(part?.CN) ?? pick(part?.O) ?? 'an unnamed authority';
};

/** The TLS handshake alone: the certificate's names and dates, or why it was refused. */
function handshake(url: URL, ca: string | undefined, trusted: string): Promise<CheckLine> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 443);
  const what = `library server ${url.origin}`;
  return new Promise((resolve) => {
    // Without the policy's CA: Node's own public CAs, named (never NODE_EXTRA_CA_CERTS, as the desk's link).
    const socket = connect({ host, port, ...(isIP(host) ? {} : { servername: host }), ca: ca ?? [...rootCertificates], timeout: HANDSHAKE_TIMEOUT_MS });
    const done = (line: CheckLine): void => {
      socket.destroy();
      resolve(line);
    };
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const until = Number.isNaN(Date.parse(cert.valid_to)) ? cert.valid_to : new Date(cert.valid_to).toISOString().slice(0, 10);
      done({ ok: true, what, detail: `certificate for ${host}, issued by ${nameOf(cert, 'issuer')}, valid until ${until}, verified with ${trusted}` });
    });
    socket.once('timeout', () => done({ ok: false, what, detail: `not reached (no answer in ${HANDSHAKE_TIMEOUT_MS / 1000} s)` }));
    socket.once('error', (error) => {
      const refusal = certificateRefusal(error, trusted);
      done({ ok: false, what, detail: refusal ?? `not reached (${errorText(error)})` });
    });
  });
}

interface Hello { instance?: unknown; workstation?: { id?: unknown; name?: unknown }; libraries?: { libraryId?: unknown }[] }

/** The workstation's token, then who the instance is and what it serves — as the desk's connection asks them. */
async function enrolment(check: InstanceCheck, what: string): Promise<CheckLine> {
  const { workstation } = check;
  if (!workstation) return { ok: false, what, detail: 'enrolment not checked: no workstation credential in the keychain' };
  const link = new LibraryServerLink({ urls: [check.url], ...(check.ca === undefined ? {} : { ca: check.ca }) });
  try {
    const fetch = link.fetchWith();
    const basic = Buffer.from(`${workstation.workstationId}:${workstation.secret}`).toString('base64');
    const token = await fetch(`${link.baseUrl}/api/v1/get-token`, { method: 'POST', headers: { authorization: `Basic ${basic}`, accept: 'application/json' } });
    if (!token.ok) return { ok: false, what, detail: `the token request was answered with status ${token.status}` };
    const { access_token: bearer } = await token.json() as { access_token?: unknown };
    if (typeof bearer !== 'string') return { ok: false, what, detail: 'the token request was answered without a token' };
    const answer = await fetch(`${link.baseUrl}/desk/v1/hello`, { method: 'GET', headers: { authorization: `Bearer ${bearer}`, accept: 'application/json' } });
    if (!answer.ok) return { ok: false, what, detail: `it answered hello with status ${answer.status}` };
    const hello = await answer.json() as Hello;
    const served = (hello.libraries ?? []).map((l) => l.libraryId).filter((id): id is number => typeof id === 'number');
    const missing = check.libraries.filter((id) => !served.includes(id));
    const who = `${workstation.workstationId}${typeof hello.workstation?.name === 'string' ? ` "${hello.workstation.name}"` : ''}`;
    const serves = `instance ${String(hello.instance)} serves libraries ${served.join(', ') || 'none'}`;
    if (missing.length > 0) return { ok: false, what, detail: `enrolment accepted (${who}), but ${serves}, not ${missing.join(', ')}, which this desk's policy names` };
    return { ok: true, what, detail: `enrolment accepted (${who}); ${serves}` };
  } catch (error) {
    return { ok: false, what, detail: refusalOf(error, workstation.workstationId) };
  } finally {
    link.close();
  }
}

/** The server's refusals of a workstation, in words for IT (the desk's reasons: library-server-fetch.ts). */
function refusalOf(error: unknown, workstationId: string): string {
  const reason = isDeskError(error) ? error.detail.reason : undefined;
  if (reason === 'library-server.not-enrolled') return `the server does not know workstation ${workstationId} (or its secret is not the one it issued): enrol this desk (enrol-desk)`;
  if (reason === 'library-server.revoked') return `workstation ${workstationId} was revoked (revoke-desk): enrol this desk again for a new one`;
  if (reason === 'library-server.certificate') return 'its certificate was refused';
  if (reason === 'library-server.unreachable') return 'not reached';
  return errorText(error);
}

/** The instance's lines: the handshake, then (once that passed) the enrolment. */
export async function checkInstance(check: InstanceCheck): Promise<CheckLine[]> {
  const url = new URL(check.url);
  const tls = await handshake(url, check.ca, check.trusted);
  if (!tls.ok) return [tls];
  return [tls, await enrolment(check, tls.what)];
}
