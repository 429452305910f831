// @vitest-environment happy-dom
// What staff and IT see when the desk trusts only what its user cannot forge, with the contract
// stubbed: a refused policy (nobody signs in; the lock and first-run screens say which rule
// failed), a sign-in record to set up again, a desk PIN change nothing here can prove, a locked
// desk that was set up whatever settings.json names, a connection changed outside the desk, the
// policy's unknown settings, the action log found changed and its readings, and the heartbeat
// that keeps main's own idle lock fed.
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ActionPage, AppInfo } from '../../../electron/shared/contract.ts';
import { buttonNamed, mountApp, ok, PARTNER_PROFILE, partnerInfo, sandboxInfo, unconfigured } from './fake-desk.ts';
import { button, click, hasButton, text } from './patron-desk-helpers.ts';

const withSignIn = (info: AppInfo, signIn: Partial<AppInfo['signIn']>): AppInfo => ({ ...info, signIn: { ...info.signIn, ...signIn } });
const refusedPolicy = { reason: 'policy.invalid-value', params: { source: '/etc/lending-desk/policy.json', setting: 'idleLockMinutes', rule: 'idleLockMinutes must be a whole number of minutes from 1 to 240.' } } as const;
const managed = (extra: Partial<NonNullable<AppInfo['managed']>> = {}): NonNullable<AppInfo['managed']> => ({
  profiles: false, lockedProfileIds: [], idleLockMinutes: false, sandboxOffered: false, sandboxAvailable: true, profileEditing: true, updates: false, updateMode: 'off', ...extra,
});

describe('a policy that is present but refused', () => {
  it('the lock screen lets nobody in and tells IT which rule failed', async () => {
    await mountApp({ ...withSignIn(partnerInfo(false), { ready: false, policyRefused: true, deskPinNeeds: 'it' }), managed: managed({ profileEditing: false, sandboxAvailable: false, policyIgnored: refusedPolicy }) });
    expect(text()).toContain('Nobody can sign in on this computer');
    expect(text()).toContain('For IT, the rule that failed: In /etc/lending-desk/policy.json, idleLockMinutes is not valid: idleLockMinutes must be a whole number of minutes from 1 to 240.');
    expect(document.querySelectorAll('input')).toHaveLength(0);
    expect(hasButton('Change the desk PIN')).toBe(false);
  });

  it('the first-run page offers nothing to set up, only why', async () => {
    await mountApp({ ...withSignIn(unconfigured(), { policyRefused: true, deskPinNeeds: 'it' }), managed: managed({ profileEditing: false, sandboxAvailable: false, policyIgnored: refusedPolicy }) });
    expect(text()).toContain('Welcome to Lending Desk');
    expect(text()).toContain('IT: correct the policy (see docs/it-deployment.md), then start Lending Desk again.');
    expect(hasButton('Use the built-in sandbox')).toBe(false);
    expect(document.querySelectorAll('input')).toHaveLength(0);
  });
});

describe('the sign-in record', () => {
  it('missing: the desk asks to be set up again with the partner password, and says why', async () => {
    await mountApp(withSignIn(partnerInfo(false), { ready: false, reestablish: 'missing', deskPinNeeds: 'partner-password', waitSeconds: 0 }));
    expect(text()).toContain('Set this desk up again');
    expect(text()).toContain("This desk's sign-in record is missing from the system keychain");
    expect(text()).toContain('Setting or changing the desk PIN takes the partner password of “Metro Library”.');
  });

  it('not the desk\'s own: says so', async () => {
    await mountApp(withSignIn(partnerInfo(false), { ready: false, reestablish: 'not-the-desks-own', deskPinNeeds: 'partner-password' }));
    expect(text()).toContain('was not written by this desk');
  });

  it('a PIN change nothing here can prove yet: says why, asks for nothing', async () => {
    await mountApp(withSignIn(partnerInfo(false), { deskPinNeeds: 'next-shift', partnerProfile: 'Mine' }));
    await click(button('Change the desk PIN'));
    expect(text()).toContain('The connection “Mine” was added or changed during this shift');
    expect(document.querySelectorAll('input')).toHaveLength(0);
    expect(hasButton('Cancel')).toBe(true);
  });

  it('a locked desk that was set up shows its sign-in, not the first-run page, whatever settings.json names', async () => {
    await mountApp(withSignIn(unconfigured(), { ready: true, setUp: true, deskPinNeeds: 'current-pin' }));
    expect(text()).not.toContain('Welcome to Lending Desk');
    expect(text()).toContain('Start your shift');
  });
});

describe('Settings', () => {
  it('a connection changed outside the desk: named as such, never asked a password, never activated; removal is offered', async () => {
    const changed = { ...PARTNER_PROFILE, changedOutside: true as const, credentials: 'for-other-address' as const, hasCredentials: false };
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.listProfiles.mockResolvedValue(ok([changed]));
    await buttonNamed(wrapper, 'Settings').trigger('click');
    await flushPromises();
    expect(text()).toContain('Changed outside the desk');
    expect(text()).toContain('The connection "Metro Library" was changed outside Lending Desk');
    expect(hasButton('Replace credentials for Metro Library')).toBe(false);
    expect(hasButton('Activate Metro Library')).toBe(false);
    expect(hasButton('Remove Metro Library')).toBe(true);
  });

  it('lists the policy\'s settings this version does not know, and says connections are IT\'s when IT says so', async () => {
    const { wrapper } = await mountApp({ ...sandboxInfo(), managed: managed({ profileEditing: false, unknownSettings: ['kioskMode', 'printerTray'] }) });
    await buttonNamed(wrapper, 'Settings').trigger('click');
    await flushPromises();
    expect(text()).toContain('Settings in the policy this version of Lending Desk does not know (ignored): kioskMode, printerTray.');
    expect(text()).toContain("Connections on this computer are set by your library's IT");
    expect(hasButton('Add a partner connection')).toBe(false);
  });
});

describe('the action log', () => {
  it('found changed: the dialog says so; a reading of the log shows its filter', async () => {
    const page: ActionPage = {
      total: 1, skipped: 0, changedAt: Date.UTC(2026, 10, 22, 15, 0),
      entries: [{ time: Date.UTC(2026, 10, 22, 15, 1), staff: 'JD', profile: 'Main', libraryId: 0, card: '', action: 'log-export', contentId: 0, outcome: 'ok', filter: { staff: 'jo', outcome: 'failed' } }],
    };
    const { desk } = await mountApp(sandboxInfo());
    desk.listActions.mockResolvedValue(ok(page));
    await click(button('Action log'));
    expect(text()).toContain('This log was changed outside Lending Desk');
    expect(text()).toContain('Exported the log');
    expect(text()).toContain('Filter: staff “jo”, outcome: Refused or failed');
  });
});

describe('main\'s idle lock', () => {
  it('hears from the window while someone uses it, at most every half minute', async () => {
    const { desk } = await mountApp(sandboxInfo());
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', bubbles: true }));
    await flushPromises();
    expect(desk.reportActivity).toHaveBeenCalledTimes(1);
  });
});
