// Staff who sign in at the library's desks, against the server (issue #32): accounts IT (or a
// manager) creates, resets and disables with the server's commands; PINs of at least six
// characters that are not common (electron/shared/pin-rules.ts), kept only as scrypt hashes; wrong
// tries counted here, per account and per workstation, so nothing at a desk resets them; a shift
// (session) bound to the member of staff and the workstation, which the desk holds in memory only,
// ends at its lock, and lasts at most what IT sets. Every partner call the server carries for a
// desk needs a live one.
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Queries } from './desk-sessions.ts';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';
import { hashPin, spendVerification, verifyPin, type PinCost } from '../electron/node/pin/pin-hash.ts';
import { FREE_TRIES, secondsToWait } from '../electron/node/pin/sign-in-throttle.ts';
import { pinProblem } from '../electron/shared/pin-rules.ts';
import { reasonText } from '../electron/shared/reasons.ts';

export const STAFF_ROLES = ['desk-staff', 'manager'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * The server's hashes cost 2^15 (32 MiB, a few hundredths of a second): they sit in a database
 * no desk can read, behind the wait after wrong tries, and fifty desks signing in at a shift
 * change must not queue behind each other's hashes on the server's cores. A desk's own hashes
 * (in a policy file every local user can read) stay at 2^16.
 */
export const SERVER_PIN_COST: PinCost = { makeLog2: 15, floorLog2: 15 };
/** How long a shift lasts at most unless IT sets otherwise. */
export const DEFAULT_SESSION_HOURS = 12;
/** How long an instance trusts what it read of a session (a sign-out or a disabled account reaches it within this). */
export const SESSION_CACHE_MS = 30_000;

export interface StaffMember { id: string; name: string; role: StaffRole; createdAt: number; pinSetAt: number; disabledAt?: number }

/** Names are matched as staff type them: case, accents composed either way and repeated spaces do not matter. */
export const staffNameKey = (name: string): string => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

interface StaffRow { id: string; name: string; role: StaffRole; pin_hash: string; created_at: Date; pin_set_at: Date; disabled_at: Date | null }

const memberOf = (row: StaffRow): StaffMember => ({
  id: row.id, name: row.name, role: row.role, createdAt: row.created_at.getTime(), pinSetAt: row.pin_set_at.getTime(),
  ...(row.disabled_at ? { disabledAt: row.disabled_at.getTime() } : {}),
});

/** A PIN the rules refuse, in IT's words (the command says it). */
function checkPin(pin: string): void {
  const problem = pinProblem(pin);
  if (problem) throw new Error(reasonText(problem, {}));
}

function checkName(name: string): string {
  const clean = name.normalize('NFC').trim().replace(/\s+/g, ' ');
  if (clean === '' || clean.length > 60 || /[\u0000-\u001f\u007f]/.test(clean)) throw new Error('A name is 1 to 60 characters without control characters.');
  return clean;
}

/** IT's (or a manager's) side: the server's staff commands. */
export class StaffAdmin {
  private readonly db: pg.ClientBase;
  private readonly cost: PinCost;

  constructor(db: pg.ClientBase, cost: PinCost = SERVER_PIN_COST) {
    this.db = db;
    this.cost = cost;
  }

  async add(name: string, role: StaffRole, pin: string): Promise<StaffMember> {
    const clean = checkName(name);
    if (!STAFF_ROLES.includes(role)) throw new Error(`A role is one of ${STAFF_ROLES.join(', ')}.`);
    checkPin(pin);
    const id = `st-${randomBytes(6).toString('hex')}`;
    try {
      const { rows } = await this.db.query<StaffRow>(`INSERT INTO ${SCHEMA}.staff (id, name, name_key, role, pin_hash) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
        [id, clean, staffNameKey(clean), role, await hashPin(pin, this.cost)]);
      return memberOf(rows[0]!);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new Error(`There is already a member of staff named "${clean}".`);
      throw error;
    }
  }

  /** A new PIN; the wrong tries counted against the account are forgotten, and its open shifts end. */
  async resetPin(name: string, pin: string): Promise<StaffMember> {
    checkPin(pin);
    const member = await this.find(name);
    await this.db.query(`UPDATE ${SCHEMA}.staff SET pin_hash = $2, pin_set_at = now() WHERE id = $1`, [member.id, await hashPin(pin, this.cost)]);
    await this.db.query(`DELETE FROM ${SCHEMA}.sign_in_failures WHERE key = $1`, [`staff:${member.id}`]);
    await this.endSessions(member.id, 'pin-reset');
    return this.find(name);
  }

  /** No more sign-ins, and the open shifts end. */
  async disable(name: string): Promise<StaffMember> {
    const member = await this.find(name);
    await this.db.query(`UPDATE ${SCHEMA}.staff SET disabled_at = coalesce(disabled_at, now()) WHERE id = $1`, [member.id]);
    await this.endSessions(member.id, 'disabled');
    return this.find(name);
  }

  async enable(name: string): Promise<StaffMember> {
    const member = await this.find(name);
    await this.db.query(`UPDATE ${SCHEMA}.staff SET disabled_at = NULL WHERE id = $1`, [member.id]);
    return this.find(name);
  }

  async list(): Promise<StaffMember[]> {
    const { rows } = await this.db.query<StaffRow>(`SELECT * FROM ${SCHEMA}.staff ORDER BY name_key`);
    return rows.map(memberOf);
  }

  private async find(name: string): Promise<StaffMember> {
    const { rows } = await this.db.query<StaffRow>(`SELECT * FROM ${SCHEMA}.staff WHERE name_key = $1`, [staffNameKey(name)]);
    if (!rows[0]) throw new Error(`No member of staff is named "${name.trim()}".`);
    return memberOf(rows[0]);
  }

  private async endSessions(staffId: string, why: string): Promise<void> {
    await this.db.query(`UPDATE ${SCHEMA}.staff_sessions SET ended_at = now(), ended_why = $2 WHERE staff_id = $1 AND ended_at IS NULL`, [staffId, why]);
  }
}

/** A live shift, as every staff call is checked against it. */
export interface StaffSession { staff: { id: string; name: string; role: StaffRole }; workstationId: string; expiresAt: number }

export type SignInRefusal =
  | { why: 'wrong'; triesLeft: number }
  | { why: 'wait'; seconds: number }
  | { why: 'disabled' };

export type SignInAnswer = { ok: true; token: string; session: StaffSession } | ({ ok: false } & SignInRefusal);

export interface StaffSignInOptions {
  db: () => Promise<Queries>;
  now: () => number;
  /** The longest shift IT allows. */
  sessionHours: number;
  cost?: PinCost;
}

interface SessionRow { staff_id: string; workstation_id: string; expires_at: Date; ended_at: Date | null; name: string; role: StaffRole; disabled_at: Date | null }

/** The desks' side: sign-in, sign-out, and a session's check on every staff call. */
export class StaffSignIn {
  private readonly options: StaffSignInOptions;
  /** Sessions read lately, by their token's hash, with when they were read. */
  private readonly cache = new Map<string, { session: StaffSession | undefined; readAt: number }>();

  constructor(options: StaffSignInOptions) {
    this.options = options;
  }

  /**
   * A sign-in at a workstation: refused while the account or the workstation waits after wrong
   * tries (whichever waits longer), counted when the PIN is wrong (on both), and a new session
   * when it is right (both counts forgotten). An unknown name takes as long as a wrong PIN and
   * counts against the workstation.
   */
  async signIn(workstationId: string, name: string, pin: string): Promise<SignInAnswer> {
    const db = await this.options.db();
    const now = this.options.now();
    const { rows } = await db.query<StaffRow>(`SELECT * FROM ${SCHEMA}.staff WHERE name_key = $1`, [staffNameKey(name)]);
    const member = rows[0];
    const keys = [`workstation:${workstationId}`, ...(member ? [`staff:${member.id}`] : [])];
    const waits = await this.waits(db, keys, now);
    if (waits > 0) return { ok: false, why: 'wait', seconds: waits };
    const right = member ? await verifyPin(pin, member.pin_hash, (this.options.cost ?? SERVER_PIN_COST).floorLog2) : await spendVerification(pin);
    if (!member || !right) {
      const failures = await this.countFailure(db, keys, now);
      const seconds = secondsToWait(failures, now, now);
      return seconds > 0 ? { ok: false, why: 'wait', seconds } : { ok: false, why: 'wrong', triesLeft: Math.max(0, FREE_TRIES - failures) };
    }
    if (member.disabled_at) return { ok: false, why: 'disabled' };
    await db.query(`DELETE FROM ${SCHEMA}.sign_in_failures WHERE key = ANY($1)`, [keys]);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + this.options.sessionHours * 3_600_000;
    await db.query(`INSERT INTO ${SCHEMA}.staff_sessions (token_sha256, staff_id, workstation_id, started_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [sha256(token), member.id, workstationId, new Date(now), new Date(expiresAt)]);
    const session: StaffSession = { staff: { id: member.id, name: member.name, role: member.role }, workstationId, expiresAt };
    this.cache.set(sha256(token).toString('hex'), { session, readAt: now });
    return { ok: true, token, session };
  }

  /** The desk locked (or quit): the session ends here too. */
  async signOut(token: string, why = 'lock'): Promise<StaffSession | undefined> {
    const session = await this.session(token);
    const db = await this.options.db();
    await db.query(`UPDATE ${SCHEMA}.staff_sessions SET ended_at = now(), ended_why = $2 WHERE token_sha256 = $1 AND ended_at IS NULL`, [sha256(token), why]);
    this.cache.set(sha256(token).toString('hex'), { session: undefined, readAt: this.options.now() });
    return session;
  }

  /** The live session this token names (not ended, not past its length, its staff not disabled), or undefined. */
  async session(token: string): Promise<StaffSession | undefined> {
    const key = sha256(token).toString('hex');
    const now = this.options.now();
    const cached = this.cache.get(key);
    let session = cached && now - cached.readAt < SESSION_CACHE_MS ? cached.session : undefined;
    if (!cached || now - cached.readAt >= SESSION_CACHE_MS) {
      const db = await this.options.db();
      const { rows } = await db.query<SessionRow>(`SELECT s.staff_id, s.workstation_id, s.expires_at, s.ended_at, m.name, m.role, m.disabled_at
        FROM ${SCHEMA}.staff_sessions s JOIN ${SCHEMA}.staff m ON m.id = s.staff_id WHERE s.token_sha256 = $1`, [sha256(token)]);
      const row = rows[0];
      session = row && !row.ended_at && !row.disabled_at
        ? { staff: { id: row.staff_id, name: row.name, role: row.role }, workstationId: row.workstation_id, expiresAt: row.expires_at.getTime() }
        : undefined;
      this.cache.set(key, { session, readAt: now });
    }
    return session && session.expiresAt > now ? session : undefined;
  }

  private async waits(db: Queries, keys: string[], now: number): Promise<number> {
    const { rows } = await db.query<{ failures: number; last_failure_at: Date }>(`SELECT failures, last_failure_at FROM ${SCHEMA}.sign_in_failures WHERE key = ANY($1)`, [keys]);
    return Math.max(0, ...rows.map((r) => secondsToWait(r.failures, r.last_failure_at.getTime(), now)));
  }

  /** One more wrong try on each key; answers the most any of them now counts. */
  private async countFailure(db: Queries, keys: string[], now: number): Promise<number> {
    const { rows } = await db.query<{ failures: number }>(`INSERT INTO ${SCHEMA}.sign_in_failures (key, failures, last_failure_at)
      SELECT k, 1, $2 FROM unnest($1::text[]) AS k
      ON CONFLICT (key) DO UPDATE SET failures = ${SCHEMA}.sign_in_failures.failures + 1, last_failure_at = excluded.last_failure_at
      RETURNING failures`, [keys, new Date(now)]);
    return Math.max(0, ...rows.map((r) => r.failures));
  }
}
