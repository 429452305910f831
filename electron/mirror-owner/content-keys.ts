// The mirror keys every table on an integer (a title's rowid, which its search index and the
// Collection's in-memory index are built on). A content id is a whole number or a string (an
// episode's, in the published schema: content-id.ts). A whole number below KEYED_FROM is its
// own key, as every mirror before schema 6 stored it; any other content id gets a key of
// KEYED_FROM or more, kept in `content_keys`, so the tables never see a string. Whole numbers
// from KEYED_FROM up go through the table too: they cannot collide with a given key.
import type { Prepares, Statement } from './mirror-file.ts';
import { contentIdOf, type ContentId } from '../shared/content-id.ts';

/** 2^52: above every content id a service has shown, exact as a double (the Collection's index holds keys in a Float64Array). */
export const KEYED_FROM = 2 ** 52;

const ownKey = (id: ContentId): id is number => typeof id === 'number' && id < KEYED_FROM;

export class ContentKeys {
  private readonly db: Prepares;
  private readonly statements: Record<string, Statement> = {};

  /** The mirror's file, or a test's own handle of it. */
  constructor(db: Prepares) {
    this.db = db;
  }

  private statement(sql: string): Statement {
    return (this.statements[sql] ??= this.db.prepare(sql));
  }

  /** The key the mirror files `id` under; a new one is given (inside the caller's transaction) when `give`. */
  keyOf(id: ContentId, give: true): number;
  keyOf(id: ContentId, give?: false): number | undefined;
  keyOf(id: ContentId, give = false): number | undefined {
    if (ownKey(id)) return id;
    const text = String(id);
    const found = this.statement('SELECT rowid_key AS key FROM content_keys WHERE id = ?').get(text) as { key: number } | undefined;
    if (found || !give) return found?.key;
    this.statement(`INSERT INTO content_keys (id, rowid_key)
      VALUES (?, coalesce((SELECT max(rowid_key) FROM content_keys), ${KEYED_FROM - 1}) + 1)`).run(text);
    return this.keyOf(id) as number;
  }

  /** The content id a key stands for (a key read from the tables always has one). */
  contentIdOf(key: number): ContentId {
    if (key < KEYED_FROM) return key;
    const found = this.statement('SELECT id FROM content_keys WHERE rowid_key = ?').get(key) as { id: string } | undefined;
    const id = found ? contentIdOf(found.id) : undefined;
    if (id === undefined) throw new Error(`The mirror has no content id for its key ${key}.`);
    return id;
  }
}
