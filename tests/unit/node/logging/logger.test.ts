// The desk's log file: one JSON line per entry, rotation by size, and no password, token or
// full library card number anywhere in it, whatever shape the caller logged them in.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileLogger, maskCard, redact } from '../../../../electron/node/logging/index.ts';
import { DeskError } from '../../../../electron/shared/desk-error.ts';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'lending-desk-log-')); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

const lines = (path: string): Array<Record<string, unknown>> =>
  readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('file logger', () => {
  it('writes one JSON line per entry with time, level and event first', () => {
    const logger = createFileLogger({ dir: join(dir, 'logs'), now: () => Date.UTC(2025, 0, 2, 3, 4, 5) });
    logger.info('app.started', { version: '0.1.0', profiles: 2 });
    logger.warn('sync.slow', { pages: [1, 2] });
    logger.error('borrow.failed', { error: new DeskError('unavailable', 'No copy is free.', 422), time: 'caller field' });
    logger.close();
    logger.info('after.close');

    expect(logger.path).toBe(join(dir, 'logs', 'lending-desk.log'));
    const written = lines(logger.path);
    expect(written).toEqual([
      { time: '2025-01-02T03:04:05.000Z', level: 'info', event: 'app.started', version: '0.1.0', profiles: 2 },
      { time: '2025-01-02T03:04:05.000Z', level: 'warn', event: 'sync.slow', pages: [1, 2] },
      {
        time: '2025-01-02T03:04:05.000Z',
        level: 'error',
        event: 'borrow.failed',
        error: { name: 'DeskError', message: 'No copy is free.', code: 'unavailable', status: 422 },
        time_: 'caller field',
      },
    ]);
    expect(Object.keys(written[0] ?? {}).slice(0, 3)).toEqual(['time', 'level', 'event']);
  });

  it('never writes a stack trace', () => {
    const logger = createFileLogger({ dir });
    logger.error('crash', { error: new Error('boom') });
    const text = readFileSync(logger.path, 'utf8');
    expect(text).not.toContain('at ');
    expect(lines(logger.path)[0]?.error).toEqual({ name: 'Error', message: 'boom' });
  });

  it('rotates by size, keeps `keep` files and drops the oldest', () => {
    const logger = createFileLogger({ dir, fileName: 'desk.log', maxBytes: 200, keep: 2 });
    const entry = (n: number): void => logger.info('entry', { n, padding: 'x'.repeat(100) }); // about 170 bytes a line
    for (let n = 1; n <= 5; n += 1) entry(n);

    expect(readdirSync(dir).sort()).toEqual(['desk.log', 'desk.log.1', 'desk.log.2']);
    expect(lines(join(dir, 'desk.log')).map((line) => line.n)).toEqual([5]);
    expect(lines(join(dir, 'desk.log.1')).map((line) => line.n)).toEqual([4]);
    expect(lines(join(dir, 'desk.log.2')).map((line) => line.n)).toEqual([3]);
    expect(existsSync(join(dir, 'desk.log.3'))).toBe(false);
  });

  it('fills a file up to maxBytes before rotating', () => {
    const logger = createFileLogger({ dir, maxBytes: 10_000 });
    for (let n = 0; n < 20; n += 1) logger.info('small', { n });
    expect(readdirSync(dir)).toEqual(['lending-desk.log']);
    expect(lines(logger.path)).toHaveLength(20);
  });

  it('keeps no password, token or full card in the file, whatever shape they are logged in', () => {
    const password = 'Tr0ub4dor&3-partner';
    const token = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.sig';
    const card = '21234001234567';
    const basic = Buffer.from(`desk-user:${password}`).toString('base64');
    let known = [password, token];
    const logger = createFileLogger({ dir, secrets: () => known });

    logger.info('login', { username: 'desk-user', password, Password: password, credentials: { username: 'u', password } });
    logger.info('token.received', { access_token: token, accessToken: token, body: `{"access_token":"${token}","expires_in":770000}` });
    logger.info('request', { headers: { Authorization: `Bearer ${token}`, accept: 'application/json' } });
    logger.info('token.request', { header: `Basic ${basic}`, url: `https://desk-user:${password}@partner.example.org/api?token=${token}` });
    logger.info('patron.lookup', { card, libraryCard: Number(card), patronCard: card, nested: [{ card }] });
    logger.info(`borrow for ${card}`, { message: `Patron ${card} borrowed 3 titles`, note: `the password is ${password}` });
    logger.error('unexpected', { error: new Error(`refused ${password} with Bearer ${token}`) });
    known = ['Another-Secret-42'];
    logger.info('later', { message: 'the new one is Another-Secret-42', short: 'abc' });

    const text = readFileSync(logger.path, 'utf8');
    for (const planted of [password, token, card, basic, 'Another-Secret-42']) expect(text).not.toContain(planted);

    const [login, received, request, tokenRequest, lookup, borrow, unexpected, later] = lines(logger.path);
    expect(login).toMatchObject({ username: 'desk-user', password: '[redacted]', Password: '[redacted]', credentials: '[redacted]' });
    expect(received).toMatchObject({ access_token: '[redacted]', accessToken: '[redacted]', body: '{"access_token":"[redacted]","expires_in":770000}' });
    expect(request).toMatchObject({ headers: { Authorization: '[redacted]', accept: 'application/json' } });
    expect(tokenRequest).toMatchObject({ header: 'Basic [redacted]', url: 'https://[redacted]@partner.example.org/api?token=[redacted]' });
    expect(lookup).toMatchObject({ card: '••••4567', libraryCard: '••••4567', patronCard: '••••4567', nested: [{ card: '••••4567' }] });
    expect(borrow).toMatchObject({ event: 'borrow for ••••4567', message: 'Patron ••••4567 borrowed 3 titles', note: 'the password is [redacted]' });
    expect(unexpected).toMatchObject({ error: { name: 'Error', message: 'refused [redacted] with Bearer [redacted]' } });
    expect(later).toMatchObject({ message: 'the new one is [redacted]', short: 'abc' });
  });
});

describe('reading history and PINs', () => {
  it('drops a title or search text however it is logged, and hides a PIN', () => {
    const logger = createFileLogger({ dir: join(dir, 'logs') });
    logger.info('patron.action', { action: 'borrow', title: 'Le Petit Prince', entry: { Title: 'Night Garden', series: 'Harbour tales' }, outcome: 'ok' });
    logger.warn('search.failed', { q: 'the river road', searchText: 'stone harbour', query: 'maple valley' });
    logger.info('session.start', { staff: 'JD', pin: '246813', currentPin: '135790' });
    logger.close();
    const text = readFileSync(logger.path, 'utf8');
    for (const kept of ['Petit Prince', 'Night Garden', 'Harbour tales', 'river road', 'stone harbour', 'maple valley', '246813', '135790']) expect(text).not.toContain(kept);
    expect(lines(logger.path)).toEqual([
      expect.objectContaining({ event: 'patron.action', action: 'borrow', entry: {}, outcome: 'ok' }),
      expect.objectContaining({ event: 'search.failed' }),
      expect.objectContaining({ staff: 'JD', pin: '[redacted]', currentPin: '[redacted]' }),
    ]);
  });
});

describe('redact', () => {
  it('leaves ordinary values alone and copies rather than changes its input', () => {
    const input = { titleId: 'abc-123', count: 3, when: new Date(Date.UTC(2025, 0, 1)), ok: true, none: null, year: '2025' };
    expect(redact(input)).toEqual({ titleId: 'abc-123', count: 3, when: '2025-01-01T00:00:00.000Z', ok: true, none: null, year: '2025' });
    const withSecret = { token: 't' };
    redact(withSecret);
    expect(withSecret.token).toBe('t');
  });

  it('copes with cycles and ignores secrets shorter than 4 characters', () => {
    const looped: Record<string, unknown> = { name: 'loop' };
    looped.self = looped;
    expect(redact(looped)).toEqual({ name: 'loop', self: '[circular]' });
    expect(redact('a pin of 123', ['123'])).toBe('a pin of 123');
  });
});

describe('maskCard', () => {
  it('shows only the last four characters', () => {
    expect(maskCard('21234001234567')).toBe('••••4567');
    expect(maskCard('AB12345')).toBe('••••2345');
    expect(maskCard('12345')).toBe('••••2345');
    expect(maskCard('1234')).toBe('••••');
    expect(maskCard('')).toBe('••••');
  });
});
