// The token a desk gets for its workstation (POST /api/v1/get-token with the workstation's id and
// secret, as a partner client asks the partner for one): never the partner's token, which stays
// on the server. It names the workstation and when it expires, sealed with a key every instance
// reads from the database, so a desk that moves to the other instance keeps its token. A token
// proves who asked only while the workstation stands: each use checks the workstation registry,
// so a revoked desk is refused within a minute even with a token that has not expired.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queries } from './desk-sessions.ts';
import { SCHEMA } from '../electron/node/library-mirror/schema.ts';

/** A desk's token lasts an hour; its client asks for a new one shortly before. */
export const DESK_TOKEN_SECONDS = 3600;
const KEY_NAME = 'desk-token-key';
const PREFIX = 'ld1';

/** The key all instances seal desks' tokens with: made by the first instance that needs it, read by the others. */
export async function deskTokenKey(db: Queries): Promise<Buffer> {
  await db.query(`INSERT INTO ${SCHEMA}.service_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`,
    [KEY_NAME, JSON.stringify(randomBytes(32).toString('base64url'))]);
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM ${SCHEMA}.service_state WHERE key = $1`, [KEY_NAME]);
  return Buffer.from(rows[0]!.value, 'base64url');
}

export interface DeskToken { workstationId: string; expiresAt: number }

export class DeskTokens {
  private readonly key: Buffer;
  private readonly now: () => number;

  constructor(key: Buffer, now: () => number = Date.now) {
    this.key = key;
    this.now = now;
  }

  issue(workstationId: string): { token: string; expiresIn: number } {
    const expires = Math.floor(this.now() / 1000) + DESK_TOKEN_SECONDS;
    const body = `${PREFIX}.${workstationId}.${expires}`;
    return { token: `${body}.${this.mac(body)}`, expiresIn: DESK_TOKEN_SECONDS };
  }

  /** The token's workstation when it is one of ours and has not expired; undefined otherwise. */
  read(token: string): DeskToken | undefined {
    const parts = token.split('.');
    if (parts.length !== 4 || parts[0] !== PREFIX) return undefined;
    const [, workstationId, expires, mac] = parts as [string, string, string, string];
    const expected = Buffer.from(this.mac(`${PREFIX}.${workstationId}.${expires}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const expiresAt = Number(expires) * 1000;
    if (!Number.isFinite(expiresAt) || expiresAt <= this.now()) return undefined;
    return { workstationId, expiresAt };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
