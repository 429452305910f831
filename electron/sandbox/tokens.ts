// Issued bearer tokens and their expiry. Random and unguessable, like the real thing, so a
// client cannot get away with inventing one.

import { randomBytes } from 'node:crypto';

export class TokenStore {
  private readonly expiries = new Map<string, number>();

  issue(nowMs: number, lifetimeSeconds: number): string {
    const token = randomBytes(24).toString('base64url');
    this.expiries.set(token, nowMs + lifetimeSeconds * 1000);
    return token;
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
