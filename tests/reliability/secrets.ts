// Watches for secrets where they must never be: the partner password, every bearer token seen
// on the wire, the full card numbers the run used and the desk PIN, searched in every contract
// result as it comes back and, at the end, in every file the desk wrote (logs, settings, the
// action log, the mirror's SQLite files and their WAL) and in the desk's keychain records (the
// sign-in record, the connections it set up, the action log's head). Titles acted on for a
// patron are reading history: they may be in results and in the (sealed) action log, never in
// the app log, so they are looked for in the log folder only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { zero, type Section } from './report.ts';

export type SecretKind = 'password' | 'token' | 'card' | 'pin' | 'title';
/** Where a kind may not be: everywhere, or only in the app log's folder. */
const APP_LOG_ONLY: ReadonlySet<SecretKind> = new Set(['title']);
const inAppLog = (path: string): boolean => path.split(/[\\/]/)[0] === 'logs';

export interface SecretHit {
  where: string;
  kind: SecretKind;
}

export class SecretWatch {
  private readonly secrets = new Map<string, SecretKind>();
  readonly hits: SecretHit[] = [];
  readonly scanned = { results: 0, files: 0, bytes: 0 };

  constructor(passwords: string[]) {
    for (const password of passwords) this.secrets.set(password, 'password');
  }

  add(token: string): void {
    if (!this.secrets.has(token)) this.secrets.set(token, 'token');
  }

  addCard(card: string): void {
    this.secrets.set(card, 'card');
  }

  addPin(pin: string): void {
    this.secrets.set(pin, 'pin');
  }

  /** A title staff acted on for a patron (short ones would match ordinary words, and are left out). */
  addTitle(title: string): void {
    if (title.length >= 8 && !this.secrets.has(title)) this.secrets.set(title, 'title');
  }

  get tokensSeen(): number {
    return [...this.secrets.values()].filter((kind) => kind === 'token').length;
  }

  get titlesWatched(): number {
    return [...this.secrets.values()].filter((kind) => kind === 'title').length;
  }

  scanValue(where: string, value: unknown): void {
    this.scanned.results += 1;
    this.scanText(where, JSON.stringify(value) ?? '');
  }

  scanText(where: string, text: string): void {
    for (const [secret, kind] of this.secrets) {
      if (!APP_LOG_ONLY.has(kind) && text.includes(secret)) this.hits.push({ where, kind });
    }
  }

  /** Every file under `dir`, as bytes: SQLite pages and WAL frames hold text as UTF-8. */
  scanFiles(dir: string): void {
    for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const path = join(dir, entry);
      if (!statSync(path).isFile()) continue;
      const bytes = readFileSync(path);
      this.scanned.files += 1;
      this.scanned.bytes += bytes.length;
      for (const [secret, kind] of this.secrets) {
        if (APP_LOG_ONLY.has(kind) && !inAppLog(entry)) continue;
        if (bytes.includes(Buffer.from(secret, 'utf8'))) this.hits.push({ where: entry, kind });
      }
    }
  }
}

/** Every watch of the run, so the secrets figure covers all scenarios together. */
const watches: SecretWatch[] = [];

export function watchSecrets(passwords: string[]): SecretWatch {
  const watch = new SecretWatch(passwords);
  watches.push(watch);
  return watch;
}

/** The secrets figures over every rig started so far (each scanned its files when it closed). */
export function secretsSection(): Section {
  const hits = watches.flatMap((w) => w.hits);
  const sum = (pick: (w: SecretWatch) => number): number => watches.reduce((total, w) => total + pick(w), 0);
  const byKind = (kind: SecretKind): number => hits.filter((h) => h.kind === kind).length;
  const where = [...new Set(hits.map((h) => `${h.kind} in ${h.where}`))].slice(0, 10);
  return {
    title: `Secrets (after the runs above: ${sum((w) => w.scanned.results).toLocaleString('en-US')} contract results, ${sum((w) => w.scanned.files)} files of ${(sum((w) => w.scanned.bytes) / 1024 / 1024).toFixed(1)} MiB — logs, settings, action log, mirror and WAL — and the desk's keychain records)`,
    figures: [
      zero('partner password found', byKind('password'), 'the password lives only in the keychain (the sandbox\'s in memory)'),
      zero('bearer tokens found', byKind('token'), `none of the ${sum((w) => w.tokensSeen).toLocaleString('en-US')} tokens issued was written anywhere or returned`),
      zero('full card numbers found', byKind('card'), 'cards are masked in every log and never echoed back'),
      zero('desk PINs found', byKind('pin'), 'a PIN is kept only as its scrypt hash and never logged or returned'),
      zero('titles found in the app log', byKind('title'), `none of the ${sum((w) => w.titlesWatched)} titles acted on for a patron reached the app log (the action log seals them)`),
    ],
    notes: where.map((w) => `hit: ${w}`),
  };
}
