// Issued bearer tokens and their expiry. Random and unguessable, like the real thing, so a
// client cannot get away with inventing one.

import { randomBytes } from 'node:crypto';

/** Issued tokens remembered for tests that scan the desk's files for them. */
const REMEMBERED = 100_000;

export class TokenStore {
  private readonly expiries = new Map<string, number>();
  private readonly issuedTokens: string[] = [];

  issue(nowMs: number, lifetimeSeconds: number): string {
    const token = randomBytes(24).toString('base64url');
    this.expiries.set(token, nowMs + lifetimeSeconds * 1000);
    this.issuedTokens.push(token);
    if (this.issuedTokens.length > REMEMBERED) this.issuedTokens.shift();
    return token;
  }

  /** Every token issued, expired ones included (the last 100,000). */
  issued(): string[] {
    return [...this.issuedTokens];
  }

  isValid(token: string, nowMs: number): boolean {
    const expiry = this.expiries.get(token);
    if (expiry === undefined) return false;
    if (expiry > nowMs) return true;
    this.expiries.delete(token);
    return false;
  }

  revokeAll(): void {
    this.expiries.clear();
  }
}
