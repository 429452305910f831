// @vitest-environment happy-dom
// A desk managed by a policy file: what is locked is marked and cannot be changed, a sandbox
// IT turned off is not offered, and a policy file that could not be used is reported.
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AppInfo, ManagedView } from '../../../electron/shared/contract.ts';
import { PARTNER_PROFILE, buttonNamed, inputLabelled, mountApp, ok, partnerInfo, unconfigured } from './fake-desk.ts';

function hasButton(wrapper: { findAll(selector: 'button'): { attributes(name: string): string | undefined; text(): string }[] }, name: string): boolean {
  return wrapper.findAll('button').some((b) => (b.attributes('aria-label') ?? b.text().trim()) === name);
}

const MANAGED: ManagedView = {
  profiles: true, lockedProfileIds: [PARTNER_PROFILE.id], idleLockMinutes: true, sandboxOffered: true,
  sandboxAvailable: false, profileEditing: true, updates: true, updateMode: 'it-managed',
};

describe('a managed desk', () => {
  it('does not offer a sandbox that IT turned off, and says why a policy was ignored', async () => {
    const policyIgnored = { reason: 'policy.invalid-value', params: { source: '/etc/lending-desk/policy.json', setting: 'profiles[0].baseUrl', rule: 'must be https' } } as const;
    const info: AppInfo = { ...unconfigured(), managed: { ...MANAGED, policyIgnored } };
    const { wrapper } = await mountApp(info);
    expect(hasButton(wrapper, 'Use the built-in sandbox')).toBe(false);
    expect(wrapper.text()).toContain('Connect to a partner service');
    expect(wrapper.text()).toContain('Policy ignored: In /etc/lending-desk/policy.json, profiles[0].baseUrl is not valid: must be https');
  });

  it('marks the preset connection, offers no Remove for it, and keeps the idle lock read-only', async () => {
    const info: AppInfo = { ...partnerInfo(), managed: MANAGED, preferences: { idleLockMinutes: 3, language: 'en' } };
    const { wrapper, desk } = await mountApp(info);
    desk.listProfiles.mockResolvedValue(ok([PARTNER_PROFILE]));
    await buttonNamed(wrapper, 'Settings').trigger('click');
    await flushPromises();
    expect(wrapper.text()).toContain("Set by your library's IT");
    expect(hasButton(wrapper, `Remove ${PARTNER_PROFILE.name}`)).toBe(false);
    expect(hasButton(wrapper, `Replace credentials for ${PARTNER_PROFILE.name}`)).toBe(true); // credentials stay per PC
    expect(hasButton(wrapper, 'Use the built-in sandbox')).toBe(false);
    const minutes = inputLabelled('Lock the desk after this many minutes without activity') as HTMLInputElement;
    expect(minutes.readOnly).toBe(true);
    expect(wrapper.text()).toContain('it cannot be changed here');
    await wrapper.get('#settings-preferences + form').trigger('submit');
    await flushPromises();
    expect(desk.updatePreferences).toHaveBeenCalledWith({ language: 'en' });
  });
});

describe('updates on a copy installed for all users (the MSI, or a per-machine install)', () => {
  it('Settings says the desk never updates itself and IT installs new versions, in English and French', async () => {
    for (const [language, sentence] of [
      ['en', "Lending Desk is installed for all users of this computer, so it never updates itself: your library's IT installs new versions."],
      ['fr-CA', 'Lending Desk est installé pour tous les utilisateurs de cet ordinateur : il ne se met donc jamais à jour de lui-même.'],
    ] as const) {
      const info: AppInfo = { ...partnerInfo(), installedForAllUsers: true, preferences: { idleLockMinutes: 3, language } };
      const { wrapper, desk } = await mountApp(info);
      desk.listProfiles.mockResolvedValue(ok([PARTNER_PROFILE]));
      await buttonNamed(wrapper, language === 'en' ? 'Settings' : 'Paramètres').trigger('click');
      await flushPromises();
      expect(wrapper.text()).toContain(sentence);
      wrapper.unmount();
    }
  });

  it('says it once: a policy asking for automatic updates there shows the refusal with its reason instead', async () => {
    const updatesRefused = { reason: 'updates.installed-for-all-users', params: {} } as const;
    const info: AppInfo = { ...partnerInfo(), installedForAllUsers: true, managed: { ...MANAGED, updateMode: 'off', updatesRefused } };
    const { wrapper, desk } = await mountApp(info);
    desk.listProfiles.mockResolvedValue(ok([PARTNER_PROFILE]));
    await buttonNamed(wrapper, 'Settings').trigger('click');
    await flushPromises();
    expect(wrapper.text()).toContain('Automatic updates refused: this copy is installed for all users of this computer (the MSI, or the installer’s per-machine choice), so it never updates itself.');
    expect(wrapper.text()).not.toContain('so it never updates itself: your library');
  });
});
