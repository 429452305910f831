// The short reliability run inside `npm test`: the same scenarios `npm run reliability` runs,
// at a smaller size, each figure required to meet its goal. Bad input and crash safety run in
// their own files (bad-input.test.ts, crash-safety.test.ts), so Vitest can run them in parallel.
import { describe, expect, it } from 'vitest';
import { runFaultMix } from '../../reliability/fault-mix.ts';
import { runLostResponses } from '../../reliability/lost-responses.ts';
import { formatSection, SHORT, type Section } from '../../reliability/report.ts';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretWatch, secretsSection } from '../../reliability/secrets.ts';
import { runTokenChurn } from '../../reliability/token-churn.ts';

function expectEveryGoalMet(section: Section): void {
  const missed = section.figures.filter((f) => !f.met);
  expect(missed, formatSection(section)).toEqual([]);
  expect(section.figures.length).toBeGreaterThan(0);
}

describe('the secrets scan itself', () => {
  it('finds a planted password, token, card and PIN in results and in files at any depth, and a title in the app log only', () => {
    const watch = new SecretWatch(['hunter2-partner']);
    watch.add('tok_abcdefghijklmnopqrstuvwxyz');
    watch.addCard('21101000017777');
    watch.addPin('864213');
    watch.addTitle('The Night Garden');
    watch.scanValue('result', { ok: false, error: { message: 'card 21101000017777 refused' } });
    watch.scanValue('search result', { hits: [{ title: 'The Night Garden' }] });
    const dir = mkdtempSync(join(tmpdir(), 'secret-watch-'));
    mkdirSync(join(dir, 'catalog'));
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'catalog', 'mirror.db-wal'), Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('Bearer tok_abcdefghijklmnopqrstuvwxyz The Night Garden')]));
    writeFileSync(join(dir, 'settings.json'), '{"password":"hunter2-partner"}');
    writeFileSync(join(dir, 'sign-in.json'), '{"pin":"864213"}');
    writeFileSync(join(dir, 'logs', 'lending-desk.log'), '{"event":"patron.action","title":"The Night Garden"}');
    writeFileSync(join(dir, 'clean.log'), 'card ••••7777');
    watch.scanFiles(dir);
    rmSync(dir, { recursive: true });
    expect(watch.hits.map((h) => `${h.kind}@${h.where}`).sort()).toEqual([
      'card@result', 'password@settings.json', 'pin@sign-in.json', `title@${join('logs', 'lending-desk.log')}`, `token@${join('catalog', 'mirror.db-wal')}`,
    ]);
  });
});

describe('reliability (short run)', () => {
  it('token churn: 2-second tokens never reach staff, renewed about once a lifetime', async () => {
    const section = await runTokenChurn(SHORT);
    expectEveryGoalMet(section);
    expect(section.figures.find((f) => f.name === 'token requests')?.value).toBeGreaterThan(20);
  }, 60_000);

  it('lost responses: each committed borrow and hold exists once, one request each', async () => {
    expectEveryGoalMet(await runLostResponses(SHORT));
  }, 60_000);

  it('fault mix: a desk day on a failing service, nothing silent, no crash, memory flat', async () => {
    const section = await runFaultMix(SHORT);
    expectEveryGoalMet(section);
    // The faults were really there.
    expect(section.notes[0]).toMatch(/; [1-9]\d* met a 5xx/);
  }, 180_000);

  it('secrets: no password, token, full card or PIN in any result or file of the runs above, no title in the app log', () => {
    const section = secretsSection();
    expectEveryGoalMet(section);
    expect(section.title).toMatch(/[1-9][\d,]* contract results/);
  });
});
