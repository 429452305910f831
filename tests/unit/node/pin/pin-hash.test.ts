// PIN hashes as the desk writes them and as IT may put them in the policy: PHC scrypt strings,
// salted, at a cost the desk accepts, checked without telling how close a guess was.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashPin, parsePinHash, PRODUCT_PIN_COST, verifyPin } from '../../../../electron/node/pin/pin-hash.ts';
import { DEFAULT_COST_LOG2, MIN_COST_LOG2, pinHashProblem } from '../../../../electron/node/pin/pin-hash-format.ts';
import { checkedPolicy } from '../../../../electron/main/policy/index.ts';
import { pinProblem } from '../../../../electron/shared/pin-rules.ts';
import { TEST_PIN_COST } from '../../../support/weak-pin-cost.ts';
import { REPO_ROOT } from '../../../support/repo-root.ts';

describe('PIN hashes', () => {
  it('writes a salted PHC scrypt string at cost 2^16 by default, never the PIN', async () => {
    const one = await hashPin('river-8642');
    const two = await hashPin('river-8642');
    expect(DEFAULT_COST_LOG2).toBe(16);
    expect(one).toMatch(/^\$scrypt\$ln=16,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain('river');
    expect(await verifyPin('river-8642', one)).toBe(true);
    expect(await verifyPin('river-8643', one)).toBe(false);
    expect(await verifyPin('river-8642 ', one)).toBe(false);
  });

  it('scripts/pin-hash.ts, the command IT makes a policy entry with, writes a hash that verifies and never the PIN', async () => {
    const script = join(REPO_ROOT, 'scripts', 'pin-hash.ts');
    const made = spawnSync(process.execPath, [script, 'Ana Lopez'], { input: 'ana-2468\n', encoding: 'utf8' });
    expect(made.status).toBe(0);
    const entry = JSON.parse(made.stdout) as { name: string; pinHash: string };
    expect(entry.name).toBe('Ana Lopez');
    expect(await verifyPin('ana-2468', entry.pinHash)).toBe(true);
    expect(made.stdout + made.stderr).not.toContain('ana-2468');
    for (const weak of ['12', '2468', '24680', '123456', '111111', '121212', '987654', 'qwerty']) {
      const refused = spawnSync(process.execPath, [script], { input: `${weak}\n`, encoding: 'utf8' });
      expect(refused.status, weak).toBe(1);
      expect(refused.stdout, weak).toBe('');
      expect(refused.stderr, weak).toMatch(/at least 6 characters|too easy to guess/);
    }
    const costly = spawnSync(process.execPath, [script], { input: 'ana-2468\n', encoding: 'utf8' });
    expect(costly.stdout).toMatch(/^\$scrypt\$ln=16,/);
  });

  it('matches a PIN typed with composed or decomposed accents alike', async () => {
    const hash = await hashPin('été-2026', TEST_PIN_COST);
    expect(await verifyPin('e\u0301te\u0301-2026', hash, TEST_PIN_COST.floorLog2)).toBe(true);
  });

  it('refuses hashes the desk will not spend its time on, or that are too weak, or not scrypt', async () => {
    const good = await hashPin('123456', TEST_PIN_COST);
    expect(parsePinHash(good, TEST_PIN_COST.floorLog2)).toMatchObject({ costLog2: 14 });
    for (const bad of [good.replace('ln=14', 'ln=10'), good.replace('ln=14', 'ln=20'), good.replace('r=8', 'r=1'), '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA', '123456', '']) {
      expect(parsePinHash(bad, TEST_PIN_COST.floorLog2), bad).toBeUndefined();
      expect(pinHashProblem(bad)).toMatch(/scrypt hash in PHC form/);
      expect(await verifyPin('123456', bad, TEST_PIN_COST.floorLog2)).toBe(false);
    }
    await expect(hashPin('123456', { makeLog2: 12, floorLog2: 12 })).rejects.toThrow(RangeError);
  });

  it('a real desk neither makes nor accepts a hash below 2^16: the test cost is a path only tests take', async () => {
    expect(PRODUCT_PIN_COST).toEqual({ makeLog2: 16, floorLog2: 16 });
    expect(MIN_COST_LOG2).toBe(16);
    const weak = await hashPin('maple-2026', TEST_PIN_COST);
    expect(parsePinHash(weak)).toBeUndefined();
    expect(await verifyPin('maple-2026', weak)).toBe(false);
    expect(pinHashProblem(weak)).toMatch(/ln=16–17/);
    await expect(hashPin('maple-2026', { makeLog2: 14, floorLog2: 16 })).rejects.toThrow(RangeError);
  });

  it("a policy's staffPins must carry such hashes and unique names, or the policy is ignored (fail closed)", async () => {
    const pinHash = await hashPin('ana-2468');
    const check = (staffPins: unknown) => checkedPolicy({ kind: 'found', source: '/etc/lending-desk/policy.json', raw: { staffPins } }, { platform: 'linux', windowsPublisherVerified: false });
    expect(check([{ name: 'Ana Lopez', pinHash }])).toMatchObject({ policy: { staffPins: [{ name: 'Ana Lopez', pinHash }] }, problems: {} });
    expect(check([{ name: 'Ana Lopez', pinHash: '2468' }]).problems.ignored).toMatchObject({ reason: 'policy.invalid-value', params: { setting: 'staffPins[0].pinHash' } });
    expect(check([{ name: 'Ana Lopez', pin: '2468' }]).problems.ignored).toMatchObject({ reason: 'policy.plain-pin', params: { setting: 'staffPins[0].pin' } });
    expect(checkedPolicy({ kind: 'found', source: 's', raw: { deskPin: '2468' } }, { platform: 'linux', windowsPublisherVerified: false }).problems.ignored)
      .toMatchObject({ reason: 'policy.plain-pin', params: { setting: 'deskPin' } });
    expect(check([{ name: 'Ana Lopez', pinHash }, { name: ' ana  lopez', pinHash }]).problems.ignored).toMatchObject({ reason: 'policy.invalid-value', params: { setting: 'staffPins' } });
    expect(check([]).problems.ignored).toMatchObject({ reason: 'policy.invalid-value' });
    const retention = (actionLogRetentionDays: unknown) => checkedPolicy({ kind: 'found', source: 's', raw: { actionLogRetentionDays } }, { platform: 'linux', windowsPublisherVerified: false });
    expect([retention(0).problems, retention(365).problems]).toEqual([{}, {}]);
    expect([retention(-1).problems.ignored?.reason, retention(366).problems.ignored?.reason, retention(1.5).problems.ignored?.reason]).toEqual(['policy.invalid-value', 'policy.invalid-value', 'policy.invalid-value']);
  });
});

describe('PINs worth the hash', () => {
  it('are at least 6 characters, and none of a repeat, a run, a repeated group or the most common', () => {
    for (const weak of ['', '2468', '24680', '000000', '111111', '999999', '123456', '234567', '654321', '987654', '890123', '121212', '123123', 'abcabc',
      'abcdef', 'fedcba', 'aaaaaa', '112233', '159753', '696969', 'qwerty', 'AZERTY', 'Password']) {
      expect(pinProblem(weak), weak).toMatch(/^pin\.too-(short|common)$/);
    }
    for (const fine of ['246813', '739105', 'maple-2026', 'river-8642', 'été-2026', '80417326', 'Ana 2468']) expect(pinProblem(fine), fine).toBeUndefined();
    expect(pinProblem('x'.repeat(65))).toBe('pin.too-long');
  });
});
