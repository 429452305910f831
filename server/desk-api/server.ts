// The library server's HTTPS endpoint for desks. Every instance listens; the leader carries the
// calls (it alone holds the credential's budget), and a follower passes each call on to the
// leader unchanged, so either instance serves any desk. A desk's token is sealed with a key both
// instances read, so it is good at either.
//
// A call is answered as the partner answered it (the desk's own client reads it), with two
// additions: a wait past TOLD_AFTER_MS is told first, as an informational answer (103) carrying
// the seconds (WAIT_HEADER), and a call whose wait would pass QUEUE_AT_MOST_MS is refused at once
// (429 with Retry-After), not done. Refusals of the server's own say why in `reason`, which the
// desk turns into the staff's sentence.
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../electron/node/logging/index.ts';
import { byteLength, chunksOf } from '../../electron/node/partner/bytes.ts';
import type { PartnerClient } from '../../electron/node/partner/client.ts';
import type { DeskTokens } from '../desk-tokens.ts';
import type { StaffQueue } from '../staff-queue.ts';
import { WaitTooLong } from '../staff-queue.ts';
import type { EnrolledWorkstation, WorkstationRefusal, WorkstationRegistry, Workstation } from '../workstations.ts';
import type { AuditAction, AuditFilter, AuditOutcome, AuditTrail } from '../audit-trail.ts';
import type { StaffSession, StaffSignIn } from '../staff.ts';
import { maskCard } from '../../electron/shared/card-mask.ts';
import { deskCallOf, type DeskCall } from './routes.ts';
import { SESSION_HEADER, WAIT_HEADER, type ServerReason } from '../../electron/node/library-server-protocol.ts';

/**
 * The informational answer carrying a wait. Node writes a 103 only with a `link` header; a
 * preconnect to the server itself says nothing a browser or the desk acts on.
 */
const waitHints = (seconds: string): Record<string, string> => ({ link: '</api/v1>; rel=preconnect', [WAIT_HEADER]: seconds });

const MAX_BODY_BYTES = 4096;

export interface LeadServing {
  /** The leader's partner client, at staff priority. */
  client: PartnerClient;
  queue: StaffQueue;
}

/**
 * What a staff call did and where its time went, for the log and the benches: in its desk's line
 * (the credential's window), writing the entry an action needs before it is sent (auditMs; a
 * lookup's entry and an action's outcome are written after the answer goes), and with the partner.
 */
export interface StaffCallRecord {
  call: Extract<DeskCall, { kind: 'staff' }>; workstation: Workstation; status: number; waitedMs: number;
  queuedMs: number; auditMs: number; partnerMs: number;
}

/** A staff call slower than this is logged with where its time went (IT's first question when staff say the desk is slow). */
export const SLOW_STAFF_CALL_MS = 1_000;

export interface DeskApiOptions {
  host: string;
  port: number;
  key: string;
  cert: string;
  /** The CA that issued the instances' certificates: a follower verifies the leader's with it. */
  ca?: string;
  instance: string;
  libraries: readonly { libraryId: number; countries: readonly string[] }[];
  registry: WorkstationRegistry;
  /** Trades an enrolment code for a new workstation (a transaction of its own). */
  enrol: (code: string) => Promise<EnrolledWorkstation | undefined>;
  tokens: () => Promise<DeskTokens>;
  /** This instance's lead, while it leads. */
  lead: () => LeadServing | undefined;
  /** The leader's desk address, as it advertised it. */
  leaderUrl: () => Promise<string | undefined>;
  log: Logger;
  /** Staff sign in here (issue #32); every staff call needs a live session. */
  staff: StaffSignIn;
  /** Every lookup and action written where no desk can rewrite it; a call whose entry cannot be written is not carried. */
  audit: AuditTrail;
  onStaffCall?: (record: StaffCallRecord) => void;
  now?: () => number;
}

/** The staff operations the audit trail records, by the action name it gives them; the others (loans, holds, search, content info) are part of a lookup or name no patron. */
const AUDITED: Partial<Record<Extract<DeskCall, { kind: 'staff' }>['operation'], AuditAction>> = {
  'patron-status': 'lookup', borrow: 'borrow', return: 'return', 'place-hold': 'place-hold', 'remove-hold': 'remove-hold',
};
const MUTATIONS = new Set<AuditAction>(['borrow', 'return', 'place-hold', 'remove-hold']);
const roundedPhases = (phases: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(phases).map(([name, ms]) => [name, Math.round(ms)]));
const outcomeOf = (status: number): 'done' | 'refused' | 'unknown' => (status >= 200 && status < 300 ? 'done' : status >= 500 || status === 0 ? 'unknown' : 'refused');

export interface DeskApi {
  url: string;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
};

const refuse = (res: ServerResponse, status: number, message: string, reason?: ServerReason, headers: Record<string, string> = {}): void =>
  send(res, status, { message, ...(reason ? { reason } : {}) }, headers);

const REFUSED_WORKSTATION: Record<WorkstationRefusal, { reason: ServerReason; message: string }> = {
  unknown: { reason: 'workstation-unknown', message: 'This desk is not enrolled with the library server.' },
  revoked: { reason: 'workstation-revoked', message: 'IT has revoked this desk\'s enrolment with the library server.' },
};

async function bodyOf(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function basic(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const text = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon > 0 ? { id: text.slice(0, colon), secret: text.slice(colon + 1) } : undefined;
}

export async function startDeskApi(options: DeskApiOptions): Promise<DeskApi> {
  const { log } = options;
  const now = options.now ?? Date.now;
  const served = new Set(options.libraries.map((l) => l.libraryId));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'https://desk-api.invalid');
    const call = deskCallOf(req.method ?? 'GET', url, served);
    if (call.kind === 'refused') return refuse(res, call.status, call.message);
    if (call.kind === 'enrol') return enrol(req, res);
    if (call.kind === 'token') {
      const given = basic(req.headers.authorization);
      const checked = given ? await options.registry.check(given.id, given.secret) : { ok: false as const, why: 'unknown' as const };
      if (!checked.ok) {
        log.warn('desk-refused', { why: checked.why, workstation: given?.id ?? null });
        return refuse(res, 401, REFUSED_WORKSTATION[checked.why].message, REFUSED_WORKSTATION[checked.why].reason);
      }
      const { token, expiresIn } = (await options.tokens()).issue(checked.workstation.id);
      return send(res, 200, { access_token: token, token_type: 'bearer', expires_in: expiresIn });
    }
    // The desk's own calls (sign-in, sign-out, the audit trail) may come with the workstation's
    // credentials; the partner's calls come with the token the desk's client asked for.
    const given = call.kind === 'staff' ? undefined : basic(req.headers.authorization);
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? (await options.tokens()).read(bearer) : undefined;
    // An expired or unknown token is the partner's 401: the desk's client asks for a new one, once.
    if (!token && !given) return refuse(res, 401, 'The desk\'s token is not valid here; ask for a new one.');
    const standing = given ? await options.registry.check(given.id, given.secret) : await options.registry.standing(token!.workstationId);
    if (!standing.ok) {
      log.warn('desk-refused', { why: standing.why, workstation: token?.workstationId ?? given?.id ?? null });
      return refuse(res, 401, REFUSED_WORKSTATION[standing.why].message, REFUSED_WORKSTATION[standing.why].reason);
    }
    if (call.kind === 'hello') {
      return send(res, 200, { instance: options.instance, workstation: { id: standing.workstation.id, name: standing.workstation.name }, libraries: options.libraries });
    }
    if (call.kind === 'sign-in') return signIn(req, res, standing.workstation);
    // Everything else is a signed-in member of staff's, at this workstation.
    const sessionToken = req.headers[SESSION_HEADER];
    const session = typeof sessionToken === 'string' ? await options.staff.session(sessionToken) : undefined;
    if (!session || session.workstationId !== standing.workstation.id) {
      return refuse(res, 401, 'No member of staff is signed in at this desk: sign in again.', 'session-ended');
    }
    if (call.kind === 'sign-out') {
      await options.staff.signOut(sessionToken as string);
      await options.audit.record({ action: 'sign-out', outcome: 'done', staff: session.staff, workstation: standing.workstation }).catch(() => {});
      return send(res, 200, {});
    }
    if (call.kind === 'audit') return readAudit(res, url, session, standing.workstation);
    const lead = options.lead();
    if (!lead) return passOn(req, res);
    await carry(req, res, call, standing.workstation, lead, session);
  };

  /** A member of staff signs in at this workstation: the server checks the PIN and counts the wrong tries. */
  const signIn = async (req: IncomingMessage, res: ServerResponse, workstation: Workstation): Promise<void> => {
    let given: { name?: unknown; pin?: unknown };
    try {
      given = JSON.parse(await bodyOf(req)) as typeof given;
    } catch {
      return refuse(res, 400, 'A sign-in is a JSON object with the name and the PIN.');
    }
    const name = typeof given.name === 'string' ? given.name : '';
    const pin = typeof given.pin === 'string' ? given.pin : '';
    if (name.trim() === '' || pin === '') return refuse(res, 400, 'A sign-in needs the name and the PIN.');
    const answer = await options.staff.signIn(workstation.id, name, pin);
    if (answer.ok) {
      await options.audit.record({ action: 'sign-in', outcome: 'done', staff: answer.session.staff, workstation });
      return send(res, 200, { session: answer.token, staff: { name: answer.session.staff.name, role: answer.session.staff.role }, expiresAt: answer.session.expiresAt });
    }
    await options.audit.record({ action: 'sign-in-refused', outcome: 'refused', workstation, detail: { name: name.trim().slice(0, 60), why: answer.why } }).catch(() => {});
    log.warn('sign-in-refused', { workstation: workstation.id, why: answer.why });
    if (answer.why === 'wait') return refuse(res, 429, `Too many wrong PINs: wait ${answer.seconds} seconds.`, 'staff-wait', { 'retry-after': String(answer.seconds) });
    if (answer.why === 'disabled') return refuse(res, 403, 'This member of staff cannot sign in: IT has disabled the account.', 'staff-disabled');
    return send(res, 401, { message: 'That name and PIN do not match.', reason: 'staff-wrong', triesLeft: answer.triesLeft });
  };

  /** A manager reads (or exports) the audit trail; the read itself is an entry. */
  const readAudit = async (res: ServerResponse, url: URL, session: StaffSession, workstation: Workstation): Promise<void> => {
    if (session.staff.role !== 'manager') {
      await options.audit.record({ action: 'audit-read', outcome: 'refused', staff: session.staff, workstation, detail: { why: 'not a manager' } }).catch(() => {});
      return refuse(res, 403, 'Only a manager reads the audit trail.', 'manager-only');
    }
    const q = url.searchParams;
    const number = (name: string): number | undefined => (q.has(name) && Number.isFinite(Number(q.get(name))) ? Number(q.get(name)) : undefined);
    const exporting = q.get('export') === '1';
    const libraryId = number('libraryId');
    const card = q.get('card') ?? undefined;
    const filter: AuditFilter = {
      ...(number('from') === undefined ? {} : { from: number('from') as number }), ...(number('to') === undefined ? {} : { to: number('to') as number }),
      ...(card && libraryId !== undefined ? { card: { libraryId, card } } : {}),
      ...(q.get('staff') ? { staff: q.get('staff') as string } : {}), ...(q.get('action') ? { action: q.get('action') as AuditAction } : {}),
      offset: number('offset') ?? 0, limit: exporting ? 10_000 : Math.min(number('limit') ?? 100, 500),
    };
    // Who read what: the filter, the card masked as everywhere else.
    const asked = { ...filter, ...(filter.card ? { card: { libraryId: filter.card.libraryId, card: maskCard(filter.card.card) } } : {}) };
    await options.audit.record({ action: exporting ? 'audit-export' : 'audit-read', outcome: 'done', staff: session.staff, workstation, detail: { filter: asked } });
    return send(res, 200, await options.audit.read(filter));
  };

  /** A staff call, in its desk's turn, to the partner and back. */
  const carry = async (req: IncomingMessage, res: ServerResponse, call: Extract<DeskCall, { kind: 'staff' }>, workstation: Workstation, lead: LeadServing, session: StaffSession): Promise<void> => {
    const started = now();
    const gone = new AbortController();
    res.on('close', () => { if (!res.writableFinished) gone.abort(new Error('The desk stopped waiting.')); });
    const action = AUDITED[call.operation];
    const entry = action === undefined ? undefined : {
      action, staff: session.staff, workstation, libraryId: call.libraryId,
      ...(call.card === undefined ? {} : { card: call.card }), ...(call.contentId === undefined ? {} : { contentId: call.contentId }),
      ...(call.contentId === undefined ? {} : { title: await options.audit.titleOf(call.contentId).catch(() => undefined) }),
    };
    let sent = false;
    const phases = { queuedMs: 0, auditMs: 0, partnerMs: 0 };
    /** The call's answer to the desk, sent before its outcome's entry is written (below). */
    let reply: () => void;
    let status: number;
    let outcome: AuditOutcome;
    try {
      const answer = await lead.queue.run(workstation.id, async () => {
        const turn = now();
        phases.queuedMs = turn - started;
        // An action is written when it is sent: a server that dies before the answer still leaves it.
        if (entry && MUTATIONS.has(entry.action)) await options.audit.record({ ...entry, outcome: 'sent' });
        sent = true;
        const asked = now();
        phases.auditMs = asked - turn;
        try {
          return await lead.client.relay(call.relay, gone.signal);
        } finally {
          phases.partnerMs = now() - asked;
        }
      }, (waitMs) => {
        if (!res.headersSent) res.writeEarlyHints(waitHints(String(Math.ceil(waitMs / 1000))));
      }, gone.signal);
      status = answer.status;
      outcome = outcomeOf(status);
      reply = () => {
        if (answer.body !== undefined && answer.status >= 200 && answer.status < 300) {
          if (res.headersSent || res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': String(byteLength(answer.body)) });
          for (const chunk of chunksOf(answer.body)) res.write(Buffer.from(chunk));
          res.end();
        } else {
          const retryAfter: Record<string, string> = answer.retryAfterMs === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(answer.retryAfterMs / 1000))) };
          send(res, answer.status, answer.message === undefined ? {} : { message: answer.message }, retryAfter);
        }
      };
    } catch (error) {
      if (error instanceof WaitTooLong) {
        status = 429;
        outcome = 'not-done';
        const seconds = Math.max(1, Math.ceil(error.waitMs / 1000));
        log.info('staff-call-refused-busy', { workstation: workstation.id, operation: call.operation, waitSeconds: seconds });
        reply = () => refuse(res, 429, error.message, 'busy', { 'retry-after': String(seconds) });
      } else if (!sent) {
        // Not sent: the desk left the line, or its action could not be written to the trail.
        status = 0;
        outcome = 'not-done';
        const message = error instanceof Error ? error.message : String(error);
        if (!gone.signal.aborted) log.error('audit-unavailable', { message });
        reply = () => refuse(res, 503, 'The library server could not write this action to its audit trail, so it did not send it.', 'audit-unavailable');
      } else {
        // The partner could not be reached (network, timeout): it may have happened; the desk's client settles a borrow's outcome by re-reading.
        status = 502;
        outcome = 'unknown';
        const message = error instanceof Error ? error.message : String(error);
        log.warn('staff-call-failed', { workstation: workstation.id, operation: call.operation, message });
        reply = () => refuse(res, 502, message, 'unreachable');
      }
    }
    // The answer goes to the desk as the outcome's entry is written, not after it: a lookup's entry
    // (and an action's outcome, whose 'sent' entry is already written) waited for the database's
    // commit beside the leader's page writes, which cost a lookup more than the partner's answer.
    if (!gone.signal.aborted) reply();
    const waitedMs = now() - started;
    if (entry) {
      await options.audit.record({ ...entry, outcome, ...(status === 0 ? {} : { status }) }).catch((error: unknown) => {
        log.error('audit-unavailable', { message: error instanceof Error ? error.message : String(error), action: entry.action });
      });
    }
    options.onStaffCall?.({ call, workstation, status, waitedMs, ...phases });
    if (waitedMs > SLOW_STAFF_CALL_MS) {
      log.info('staff-call-slow', { workstation: workstation.id, operation: call.operation, status, ms: Math.round(waitedMs), ...roundedPhases(phases) });
    }
  };

  /** A follower passes the call on to the leader as it came, and the answer back as it comes. */
  const passOn = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const leader = await options.leaderUrl().catch(() => undefined);
    if (!leader) return refuse(res, 503, 'The library server is choosing which instance leads; try again in a moment.', 'not-leading', { 'retry-after': '1' });
    const target = new URL(req.url ?? '/', leader);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => ['authorization', 'content-type', 'content-length', 'accept', 'kids-mode', 'ws-api', SESSION_HEADER].includes(name)));
    await new Promise<void>((resolve) => {
      const onward = httpsRequest(target, { method: req.method, headers: headers as Record<string, string>, ...(options.ca ? { ca: options.ca } : {}) }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, Object.fromEntries(Object.entries(answer.headers).filter(([name]) => ['content-type', 'content-length', 'retry-after'].includes(name))) as Record<string, string>);
        answer.pipe(res);
        answer.on('end', resolve);
        answer.on('error', () => resolve());
      });
      onward.on('information', (info) => {
        const wait = info.headers[WAIT_HEADER];
        if (typeof wait === 'string' && !res.headersSent) res.writeEarlyHints(waitHints(wait));
      });
      onward.on('error', () => {
        refuse(res, 503, 'The instance that leads the library server did not answer; try again in a moment.', 'not-leading', { 'retry-after': '1' });
        resolve();
      });
      res.on('close', () => { if (!res.writableFinished) onward.destroy(); });
      req.pipe(onward);
    });
  };

  const enrol = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let code = '';
    try {
      const parsed = JSON.parse(await bodyOf(req)) as { code?: unknown };
      code = typeof parsed.code === 'string' ? parsed.code : '';
    } catch {
      return refuse(res, 400, 'An enrolment is a JSON object with the code IT gave.');
    }
    const enrolled = code === '' ? undefined : await options.enrol(code);
    if (!enrolled) {
      log.warn('enrolment-refused', {});
      return refuse(res, 403, 'That enrolment code is not good: it was used already, it expired, or it was mistyped.', 'enrolment-code');
    }
    log.info('desk-enrolled', { workstation: enrolled.id, name: enrolled.name });
    return send(res, 200, { workstationId: enrolled.id, name: enrolled.name, secret: enrolled.secret });
  };

  const server: Server = createServer({ key: options.key, cert: options.cert, minVersion: 'TLSv1.2' }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.error('desk-api-failed', { message: error instanceof Error ? error.message : String(error) });
      refuse(res, 500, 'The library server could not answer this call.');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `https://${host}:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
