// The audit trail (issue #32): the server writes every patron lookup and every action staff take
// for a patron — who (the signed-in member of staff), where (the workstation), when, what, which
// title, how it went, the card masked and a keyed hash of it (to find one patron's entries without
// naming the card) — into a table it may only add to (server/deploy/create-audit-trail.sql: no
// runtime role may UPDATE, DELETE or TRUNCATE it; only the maintenance role's purge removes what
// is past the library's retention, and records that it did). Sign-ins and managers' reads and
// exports of the trail are entries too.
//
// An action is written twice: when the server sends it to the partner (`sent`) and when the
// answer comes (its outcome), so a server that dies between the two still leaves the first. A
// call whose entry cannot be written is not carried (the server fails closed).
import { createHmac, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Queries } from './desk-sessions.ts';
import { maskCard } from '../electron/shared/card-mask.ts';
import { SCHEMA as MIRROR_SCHEMA } from '../electron/node/library-mirror/schema.ts';

export const AUDIT_SCHEMA = 'library_audit';
const ENTRIES = `${AUDIT_SCHEMA}.entries`;
const KEY_NAME = 'audit-card-key';

export type AuditAction =
  | 'lookup' | 'borrow' | 'return' | 'place-hold' | 'remove-hold'
  | 'sign-in' | 'sign-in-refused' | 'sign-out' | 'audit-read' | 'audit-export' | 'purge';
export type AuditOutcome = 'sent' | 'done' | 'refused' | 'not-done' | 'unknown';

export interface AuditEntryInput {
  action: AuditAction;
  outcome: AuditOutcome;
  staff?: { id: string; name: string; role: string };
  workstation?: { id: string; name: string };
  libraryId?: number;
  card?: string;
  contentId?: string;
  title?: string;
  status?: number;
  detail?: Record<string, unknown>;
}

export interface AuditEntry {
  id: number; at: number; staffName?: string; staffRole?: string; workstationId?: string; workstationName?: string; action: string;
  libraryId?: number; cardMasked?: string; contentId?: string; title?: string; outcome: string; status?: number; detail?: Record<string, unknown>;
}

export interface AuditFilter {
  from?: number;
  to?: number;
  /** One patron's entries: the card as typed (hashed here, never kept), with its library. */
  card?: { libraryId: number; card: string };
  staff?: string;
  action?: AuditAction;
  offset?: number;
  limit?: number;
}

interface EntryRow {
  id: string; at: Date; staff_name: string | null; staff_role: string | null; workstation_id: string | null; workstation_name: string | null;
  action: string; library_id: string | null; card_masked: string | null; content_id: string | null; title: string | null; outcome: string;
  status: number | null; detail: Record<string, unknown> | null;
}

const entryOf = (r: EntryRow): AuditEntry => {
  const optional = {
    staffName: r.staff_name, staffRole: r.staff_role, workstationId: r.workstation_id, workstationName: r.workstation_name,
    libraryId: r.library_id === null ? null : Number(r.library_id), cardMasked: r.card_masked, contentId: r.content_id, title: r.title,
    status: r.status, detail: r.detail,
  };
  return { id: Number(r.id), at: r.at.getTime(), action: r.action, outcome: r.outcome, ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== null)) };
};

export class AuditTrail {
  private readonly db: () => Promise<Queries>;
  private key: Promise<Buffer> | undefined;

  constructor(db: () => Promise<Queries>) {
    this.db = db;
  }

  /** The card's keyed hash: the same card at the same library always gives the same text, which names no card. */
  async cardKey(libraryId: number, card: string): Promise<string> {
    return createHmac('sha256', await this.cardHashKey()).update(`${libraryId}\u0000${card.trim()}`).digest('base64url');
  }

  async record(entry: AuditEntryInput): Promise<void> {
    const db = await this.db();
    const card = entry.card === undefined || entry.libraryId === undefined ? undefined
      : { masked: maskCard(entry.card), key: await this.cardKey(entry.libraryId, entry.card) };
    await db.query(`INSERT INTO ${ENTRIES} (staff_id, staff_name, staff_role, workstation_id, workstation_name, action, library_id, card_masked, card_key,
        content_id, title, outcome, status, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [entry.staff?.id ?? null, entry.staff?.name ?? null, entry.staff?.role ?? null, entry.workstation?.id ?? null, entry.workstation?.name ?? null,
      entry.action, entry.libraryId ?? null, card?.masked ?? null, card?.key ?? null, entry.contentId ?? null, entry.title ?? null,
      entry.outcome, entry.status ?? null, entry.detail === undefined ? null : JSON.stringify(entry.detail)]);
  }

  /** Entries newest first, with the total the filter matches. */
  async read(filter: AuditFilter): Promise<{ entries: AuditEntry[]; total: number }> {
    const db = await this.db();
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: string, value: unknown): void => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (filter.from !== undefined) add('at >= ?', new Date(filter.from));
    if (filter.to !== undefined) add('at < ?', new Date(filter.to));
    if (filter.card) add('card_key = ?', await this.cardKey(filter.card.libraryId, filter.card.card));
    if (filter.staff) add('lower(staff_name) = lower(?)', filter.staff);
    if (filter.action) add('action = ?', filter.action);
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const total = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${ENTRIES} ${clause}`, params)).rows[0]?.n ?? 0);
    const limit = Math.min(filter.limit ?? 100, 10_000);
    const { rows } = await db.query<EntryRow>(`SELECT * FROM ${ENTRIES} ${clause} ORDER BY at DESC, id DESC LIMIT ${limit} OFFSET ${Math.max(0, filter.offset ?? 0)}`, params);
    return { entries: rows.map(entryOf), total };
  }

  /** The title a content id names in the library mirror, when it holds one (the audit entry names it). */
  async titleOf(contentId: string): Promise<string | undefined> {
    const db = await this.db();
    const { rows } = await db.query<{ title: string | null }>(`SELECT coalesce(record::jsonb->>'title', '') AS title FROM ${MIRROR_SCHEMA}.titles WHERE id = $1 AND NOT removed`, [contentId]);
    const title = rows[0]?.title;
    return title ? title : undefined;
  }

  private cardHashKey(): Promise<Buffer> {
    this.key ??= (async () => {
      const db = await this.db();
      await db.query(`INSERT INTO ${MIRROR_SCHEMA}.service_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`,
        [KEY_NAME, JSON.stringify(randomBytes(32).toString('base64url'))]);
      const { rows } = await db.query<{ value: string }>(`SELECT value FROM ${MIRROR_SCHEMA}.service_state WHERE key = $1`, [KEY_NAME]);
      return Buffer.from(rows[0]!.value, 'base64url');
    })();
    this.key.catch(() => { this.key = undefined; });
    return this.key;
  }
}
