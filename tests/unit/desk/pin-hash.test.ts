// PIN hashes as the desk writes them and as IT may put them in the policy: PHC scrypt strings,
// salted, at a cost the desk accepts, checked without telling how close a guess was.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COST_LOG2, hashPin, parsePinHash, pinHashProblem, verifyPin } from '../../../electron/desk/pin-hash.ts';
import { checkedPolicy } from '../../../electron/policy/index.ts';

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
    const script = join(import.meta.dirname, '..', '..', '..', 'scripts', 'pin-hash.ts');
    const made = spawnSync(process.execPath, [script, 'Ana Lopez'], { input: 'ana-2468\n', encoding: 'utf8' });
    expect(made.status).toBe(0);
    const entry = JSON.parse(made.stdout) as { name: string; pinHash: string };
    expect(entry.name).toBe('Ana Lopez');
    expect(await verifyPin('ana-2468', entry.pinHash)).toBe(true);
    expect(made.stdout + made.stderr).not.toContain('ana-2468');
    expect(spawnSync(process.execPath, [script], { input: '12\n', encoding: 'utf8' }).status).toBe(1);
  });

  it('matches a PIN typed with composed or decomposed accents alike', async () => {
    const hash = await hashPin('été-2026', 14);
    expect(await verifyPin('e\u0301te\u0301-2026', hash)).toBe(true);
  });

  it('refuses hashes the desk will not spend its time on, or that are too weak, or not scrypt', async () => {
    const good = await hashPin('123456', 14);
    expect(parsePinHash(good)).toMatchObject({ costLog2: 14 });
    for (const bad of [good.replace('ln=14', 'ln=10'), good.replace('ln=14', 'ln=20'), good.replace('r=8', 'r=1'), '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA', '123456', '']) {
      expect(parsePinHash(bad), bad).toBeUndefined();
      expect(pinHashProblem(bad)).toMatch(/scrypt hash in PHC form/);
      expect(await verifyPin('123456', bad)).toBe(false);
    }
    await expect(hashPin('123456', 12)).rejects.toThrow(RangeError);
  });

  it("a policy's staffPins must carry such hashes and unique names, or the policy is ignored (fail closed)", async () => {
    const pinHash = await hashPin('ana-2468', 14);
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
