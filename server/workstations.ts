// The desk PCs the library server carries partner calls for. IT enrols a desk with the server's
// `enrol-desk` command, which prints a one-time code; the desk trades it (once, before it
// expires) for its workstation id and secret, which it keeps in its keychain. A desk IT's own
// tooling sets up gets the secret printed instead (`enrol-desk --print-secret`). IT revokes a
// desk with `revoke-desk`; every instance sees a revocation within WORKSTATION_CACHE_MS.
//
// Only SHA-256s of codes and secrets are kept: both are long random strings (a code of 80 bits,
// a secret of 256), so a slow hash adds nothing, and a copy of this table enrols nothing and
// opens no desk. A copied workstation secret is a stolen workstation until IT revokes it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import type { Queries } from './desk-sessions.ts';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';

/** How long a revocation may take to reach an instance's answers (the desk is refused within a minute). */
export const WORKSTATION_CACHE_MS = 30_000;
/** How long an enrolment code stays good, unless IT says otherwise. */
export const ENROLMENT_CODE_HOURS = 24;

/** Letters and digits a person reads off a screen without mistaking one for another (no 0/O, 1/I/L, U). */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 16; // 16 × log2(30) ≈ 78 bits

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** A code as typed: case, spaces and dashes do not matter. */
export const normalizeCode = (code: string): string => code.toUpperCase().replace(/[\s-]/g, '');

function newCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

export interface Workstation { id: string; name: string; enrolledAt: number; revokedAt?: number; lastSeenAt?: number }

export interface EnrolledWorkstation { id: string; name: string; secret: string }

/** Why a workstation's credentials were refused: the words the desk turns into the staff's sentence. */
export type WorkstationRefusal = 'unknown' | 'revoked';

interface Row { id: string; name: string; secret_sha256: Buffer; enrolled_at: Date; revoked_at: Date | null; last_seen_at: Date | null }

const workstationOf = (row: Row): Workstation => ({
  id: row.id, name: row.name, enrolledAt: row.enrolled_at.getTime(),
  ...(row.revoked_at ? { revokedAt: row.revoked_at.getTime() } : {}), ...(row.last_seen_at ? { lastSeenAt: row.last_seen_at.getTime() } : {}),
});

/** IT's side: codes, enrolments, revocations, the list. Any instance's session of the server's role. */
export class WorkstationAdmin {
  private readonly db: pg.ClientBase;

  constructor(db: pg.ClientBase) {
    this.db = db;
  }

  /** A one-time code for a desk IT names; good for `hours`. Printed once, never kept in the clear. */
  async createCode(name: string, hours = ENROLMENT_CODE_HOURS): Promise<{ code: string; expiresAt: number }> {
    const cleanName = checkName(name);
    const code = newCode();
    const { rows } = await this.db.query<{ expires_at: Date }>(
      `INSERT INTO ${SCHEMA}.enrolment_codes (code_sha256, name, expires_at) VALUES ($1, $2, now() + make_interval(hours => $3)) RETURNING expires_at`,
      [sha256(normalizeCode(code)), cleanName, hours]);
    return { code, expiresAt: rows[0]!.expires_at.getTime() };
  }

  /** A workstation enrolled at once, its secret returned for IT's tooling to put in the desk's keychain. */
  async enrolDirectly(name: string): Promise<EnrolledWorkstation> {
    return this.insertWorkstation(this.db, checkName(name));
  }

  /** Trades a code (once, before it expires) for a new workstation's id and secret; undefined when the code is not good. */
  async enrol(code: string): Promise<EnrolledWorkstation | undefined> {
    await this.db.query('BEGIN');
    try {
      const { rows } = await this.db.query<{ name: string; code_sha256: Buffer }>(
        `SELECT name, code_sha256 FROM ${SCHEMA}.enrolment_codes WHERE code_sha256 = $1 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
        [sha256(normalizeCode(code))]);
      const found = rows[0];
      if (!found) {
        await this.db.query('ROLLBACK');
        return undefined;
      }
      const enrolled = await this.insertWorkstation(this.db, found.name);
      await this.db.query(`UPDATE ${SCHEMA}.enrolment_codes SET used_at = now(), workstation_id = $2 WHERE code_sha256 = $1`, [found.code_sha256, enrolled.id]);
      await this.db.query('COMMIT');
      return enrolled;
    } catch (error) {
      await this.db.query('ROLLBACK').catch(() => {});
      throw error;
    }
  }

  /** True when the workstation was enrolled and not revoked before. */
  async revoke(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(`UPDATE ${SCHEMA}.workstations SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
    return (rowCount ?? 0) > 0;
  }

  async list(): Promise<Workstation[]> {
    const { rows } = await this.db.query<Row>(`SELECT * FROM ${SCHEMA}.workstations ORDER BY enrolled_at, id`);
    return rows.map(workstationOf);
  }

  private async insertWorkstation(db: pg.ClientBase, name: string): Promise<EnrolledWorkstation> {
    const id = `ws-${randomBytes(6).toString('hex')}`;
    const secret = randomBytes(32).toString('base64url');
    await db.query(`INSERT INTO ${SCHEMA}.workstations (id, name, secret_sha256) VALUES ($1, $2, $3)`, [id, name, sha256(secret)]);
    return { id, name, secret };
  }
}

function checkName(name: string): string {
  const clean = name.trim();
  if (clean === '' || clean.length > 80 || /[\u0000-\u001f\u007f]/.test(clean)) throw new Error('A desk\'s name is 1 to 80 characters without control characters.');
  return clean;
}

/**
 * What every instance checks a desk's credentials against: the workstations table, read again
 * at most WORKSTATION_CACHE_MS after the last read, so a revocation reaches every instance within
 * that long. An id not found is looked up at once (a desk enrolled a second ago is known).
 */
export class WorkstationRegistry {
  private readonly db: () => Promise<Queries>;
  private readonly now: () => number;
  private cache = new Map<string, Row>();
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;
  private readonly seen = new Set<string>();

  constructor(db: () => Promise<Queries>, now: () => number = Date.now) {
    this.db = db;
    this.now = now;
  }

  /** The workstation whose id and secret these are, or why not. */
  async check(id: string, secret: string): Promise<{ ok: true; workstation: Workstation } | { ok: false; why: WorkstationRefusal }> {
    let row = await this.row(id);
    if (!row) {
      await this.read(true);
      row = this.cache.get(id);
    }
    if (!row || !timingSafeEqual(row.secret_sha256, sha256(secret))) return { ok: false, why: 'unknown' };
    if (row.revoked_at) return { ok: false, why: 'revoked' };
    this.seen.add(id);
    return { ok: true, workstation: workstationOf(row) };
  }

  /** Still enrolled and not revoked, as of the last read (a desk's token is checked against this). */
  async standing(id: string): Promise<{ ok: true; workstation: Workstation } | { ok: false; why: WorkstationRefusal }> {
    const row = await this.row(id);
    if (!row) return { ok: false, why: 'unknown' };
    if (row.revoked_at) return { ok: false, why: 'revoked' };
    this.seen.add(id);
    return { ok: true, workstation: workstationOf(row) };
  }

  private async row(id: string): Promise<Row | undefined> {
    if (this.now() - this.readAt >= WORKSTATION_CACHE_MS) await this.read(false);
    return this.cache.get(id);
  }

  private read(force: boolean): Promise<void> {
    if (!force && this.reading) return this.reading;
    const reading = (async () => {
      const db = await this.db();
      const seen = [...this.seen];
      this.seen.clear();
      if (seen.length > 0) await db.query(`UPDATE ${SCHEMA}.workstations SET last_seen_at = now() WHERE id = ANY($1)`, [seen]).catch(() => {});
      const { rows } = await db.query<Row>(`SELECT * FROM ${SCHEMA}.workstations`);
      this.cache = new Map(rows.map((r) => [r.id, r]));
      this.readAt = this.now();
    })().finally(() => { if (this.reading === reading) this.reading = undefined; });
    this.reading = reading;
    return reading;
  }
}
