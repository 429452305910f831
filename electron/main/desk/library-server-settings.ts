// A desk in a library whose IT policy names the library server (issue #31): every partner call of
// the desk goes to the server, proven with this desk's workstation credentials — its id and secret
// in the keychain, written when IT's one-time enrolment code was traded for them (or by IT's
// tooling). The desk keeps no partner password and never sees the partner's token.
import { readFileSync } from 'node:fs';
import { asWrittenByTooling, DESK_RECORDS, type DeskKeychain } from '../credentials/desk-keychain.ts';
import type { ConnectionsOptions } from '../connection/connections.ts';
import { LibraryServerLink, serverLabel, type ServerSession } from '../connection/library-server-fetch.ts';
import type { Credentials } from '../../node/partner/token.ts';
import type { LibraryServerPolicy } from '../policy/library-server-policy.ts';
import { serverUrls } from '../policy/library-server-policy.ts';
import type { AuditTrailEntry, AuditTrailPage, LibraryServerView, ParsedArgsOf } from '../../shared/contract.ts';
import { DeskError } from '../../shared/desk-error.ts';

export interface WorkstationRecord { workstationId: string; secret: string }

/** The one line IT's tooling puts in the keychain (`enrol-desk --print-secret`): `<workstation id>:<secret>`. */
const TOOLING_LINE = /^(ws-[0-9a-f]{12}):([A-Za-z0-9_-]{16,})$/;

/**
 * The workstation record as the desk wrote it at its enrolment (JSON), or as IT's tooling put it
 * there (the server's one line, through secret-tool, security or cmdkey — whose UTF-16 is read as
 * such); undefined when it is neither.
 */
export function parseWorkstationRecord(saved: string | undefined): WorkstationRecord | undefined {
  if (saved === undefined) return undefined;
  const text = asWrittenByTooling(saved).trim();
  const line = TOOLING_LINE.exec(text);
  if (line) return { workstationId: line[1] as string, secret: line[2] as string };
  try {
    const parsed = JSON.parse(text) as Partial<WorkstationRecord>;
    return typeof parsed.workstationId === 'string' && typeof parsed.secret === 'string' && parsed.secret !== ''
      ? { workstationId: parsed.workstationId, secret: parsed.secret } : undefined;
  } catch {
    return undefined;
  }
}

export class LibraryServerSettings {
  readonly link: LibraryServerLink;
  private readonly keychain: DeskKeychain;
  /**
   * The signed-in member of staff's session at the server (issue #32): in main's memory only,
   * never in the keychain or a file, so nothing a program of the desk's OS user rewrites opens a
   * shift. Every partner call the server carries for this desk needs it.
   */
  private session: ServerSession | undefined;
  /** Told when the server says the session ended (its length, or IT ended it): the desk locks. */
  private onSessionEnded: () => void = () => {};

  constructor(policy: LibraryServerPolicy, keychain: DeskKeychain) {
    let ca: string | undefined;
    if (policy.caFile !== undefined) {
      try {
        ca = readFileSync(policy.caFile, 'utf8');
      } catch {
        // No CA to check the server with: nothing is sent (an empty CA list trusts no certificate).
        ca = '';
      }
    }
    this.link = new LibraryServerLink({ urls: serverUrls(policy), ...(ca === undefined ? {} : { ca }) });
    this.keychain = keychain;
  }

  /** The connections' library-server settings; `onWait` hears the server's expected waits. */
  options(onWait: (seconds: number) => void): NonNullable<ConnectionsOptions['libraryServer']> {
    return {
      link: this.link, onWait, workstation: () => this.workstation(),
      session: () => this.session?.token,
      sessionEnded: () => {
        if (!this.session) return;
        this.session = undefined;
        this.onSessionEnded();
      },
    };
  }

  /** The shift area's way to hear that the server ended the session. */
  whenSessionEnds(listener: () => void): void {
    this.onSessionEnded = listener;
  }

  /**
   * A member of staff signs in at the server, as themselves (their name and PIN, checked and
   * counted there: nothing at the desk resets a wait). The session is kept in memory only.
   */
  async signIn(name: string, pin: string): Promise<ServerSession> {
    const workstation = await this.workstation();
    const before = this.session;
    this.session = await this.link.signIn(workstation, name, pin);
    // Signed in again on the same shift (a PIN typed again before an export): the earlier session goes.
    if (before) await this.link.signOut(workstation, before.token).catch(() => undefined);
    return this.session;
  }

  /** The audit trail as the server gives it to a manager (the server checks the role, and records the read). */
  async readAudit(args: Omit<ParsedArgsOf<'readAuditTrail'>, 'pin'>): Promise<AuditTrailPage> {
    const session = this.session;
    if (!session) throw DeskError.because('unauthorized', 'library-server.session-ended', { server: serverLabel(this.link.target) });
    const { export: exporting, ...filter } = args;
    const body = await this.link.readAudit(await this.workstation(), session.token, { ...filter, ...(exporting ? { export: 1 } : {}) }) as { entries?: unknown; total?: unknown };
    if (!Array.isArray(body.entries) || typeof body.total !== 'number') throw new DeskError('bad-response', 'The library server answered the audit read without its entries.');
    return { total: body.total, entries: body.entries.map(auditEntryOf) };
  }

  /** The shift ends at the server too; a server that cannot be reached ends it at the session's own length. */
  async signOut(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    await this.link.signOut(await this.workstation(), session.token);
  }

  /** The workstation credentials the server's token request takes, from the keychain. */
  async workstation(): Promise<Credentials> {
    const record = parseWorkstationRecord(await this.keychain.read(DESK_RECORDS.workstation));
    if (!record) throw DeskError.because('unauthorized', 'library-server.not-enrolled', { server: serverLabel(this.link.target) });
    return { username: record.workstationId, password: record.secret };
  }

  async view(): Promise<LibraryServerView> {
    const record = parseWorkstationRecord(await this.keychain.read(DESK_RECORDS.workstation));
    return { server: serverLabel(this.link.target), enrolled: record !== undefined, ...(record ? { workstationId: record.workstationId } : {}) };
  }

  /** Trades IT's code for this desk's credentials, kept in the keychain; refused on a desk enrolled already. */
  async enrol(code: string): Promise<LibraryServerView> {
    if ((await this.view()).enrolled) throw DeskError.because('invalid-input', 'library-server.enrolled-already');
    const enrolled = await this.link.enrol(code);
    await this.keychain.write(DESK_RECORDS.workstation, JSON.stringify({ workstationId: enrolled.workstationId, secret: enrolled.secret }));
    return this.view();
  }
}

/** One entry as the server sent it: only the fields the view shows, each of the type it should be. */
function auditEntryOf(raw: unknown): AuditTrailEntry {
  const r = (raw ?? {}) as Record<string, unknown>;
  const text = (key: string): string | undefined => (typeof r[key] === 'string' ? r[key] as string : undefined);
  const entry: AuditTrailEntry = { at: typeof r.at === 'number' ? r.at : 0, action: text('action') ?? '', outcome: text('outcome') ?? '' };
  for (const key of ['staffName', 'staffRole', 'workstationName', 'cardMasked', 'contentId', 'title'] as const) {
    const value = text(key);
    if (value !== undefined) entry[key] = value;
  }
  if (typeof r.libraryId === 'number') entry.libraryId = r.libraryId;
  return entry;
}
