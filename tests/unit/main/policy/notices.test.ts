// @vitest-environment happy-dom
// What staff see of the machine policy, in both languages: "policy ignored: <why>" with what
// failing closed switched off (and no way to add, change or remove a connection or pick the
// sandbox), and the reason automatic updates were refused. The contract is stubbed.
import { flushPromises, mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AppInfo, ManagedView } from '../../../../electron/shared/contract.ts';
import ErrorNotice from '../../../../src/components/common/ErrorNotice.vue';
import { createDeskI18n } from '../../../../src/i18n/index.ts';
import { PARTNER_PROFILE, SANDBOX_PROFILE, buttonNamed, mountApp, ok, partnerInfo, unconfigured } from '../../renderer/fake-desk.ts';

const FAIL_CLOSED: ManagedView = {
  profiles: false, lockedProfileIds: [], idleLockMinutes: false, sandboxOffered: true, sandboxAvailable: false, profileEditing: false,
  updates: true, updateMode: 'off',
  policyIgnored: { reason: 'policy.wrong-owner', params: { source: '/etc/lending-desk/policy.json', owner: 1000, expected: 'root' } },
};
const UPDATES_REFUSED: ManagedView = {
  profiles: false, lockedProfileIds: [], idleLockMinutes: false, sandboxOffered: false, sandboxAvailable: true, profileEditing: true,
  updates: true, updateMode: 'off', updatesRefused: { reason: 'updates.unverified-windows-build', params: {} },
};

async function openSettings(info: AppInfo) {
  const { wrapper, desk } = await mountApp(info);
  desk.listProfiles.mockResolvedValue(ok([PARTNER_PROFILE]));
  await buttonNamed(wrapper, info.preferences.language === 'fr-CA' ? 'Paramètres' : 'Settings').trigger('click');
  await flushPromises();
  return wrapper;
}

const buttons = (wrapper: Awaited<ReturnType<typeof openSettings>>) => wrapper.findAll('button').map((b) => b.attributes('aria-label') ?? b.text().trim());

describe('an ignored policy in Settings', () => {
  it('says "Policy ignored" with the reason and what is off, and offers no connection edits', async () => {
    const wrapper = await openSettings({ ...partnerInfo(), managed: FAIL_CLOSED });
    expect(wrapper.text()).toContain('Policy ignored: /etc/lending-desk/policy.json is owned by user 1000, not by root.');
    expect(wrapper.text()).toContain('connections cannot be added, changed or removed on this computer, the built-in sandbox is off and automatic updates are off.');
    expect(buttons(wrapper)).not.toContain('Add a partner connection');
    expect(buttons(wrapper)).not.toContain(`Remove ${PARTNER_PROFILE.name}`);
    expect(buttons(wrapper)).not.toContain('Use the built-in sandbox');
    // Credentials stay this computer's business.
    expect(buttons(wrapper)).toContain(`Replace credentials for ${PARTNER_PROFILE.name}`);
  });

  it('says it in French', async () => {
    const wrapper = await openSettings({ ...partnerInfo(), preferences: { idleLockMinutes: 5, language: 'fr-CA' }, managed: FAIL_CLOSED });
    expect(wrapper.text()).toContain('Politique ignorée : /etc/lending-desk/policy.json appartient à l’utilisateur 1000, et non à root.');
    expect(wrapper.text()).toContain('les connexions ne peuvent pas être ajoutées, modifiées ni supprimées sur cet ordinateur');
  });

  it('is said on the first-run page too, where the sandbox is not offered', async () => {
    const { wrapper } = await mountApp({ ...unconfigured(), managed: FAIL_CLOSED });
    expect(wrapper.text()).toContain('Policy ignored: /etc/lending-desk/policy.json is owned by user 1000, not by root.');
    expect(wrapper.text()).not.toContain('Use the built-in sandbox');
  });

  it('is not said on an unmanaged desk, which keeps every connection edit', async () => {
    const unmanaged: ManagedView = { ...UPDATES_REFUSED, updates: false, updatesRefused: undefined };
    const { wrapper, desk } = await mountApp({ ...partnerInfo(), managed: unmanaged });
    desk.listProfiles.mockResolvedValue(ok([PARTNER_PROFILE, SANDBOX_PROFILE]));
    await buttonNamed(wrapper, 'Settings').trigger('click');
    await flushPromises();
    expect(wrapper.text()).not.toContain('Policy ignored');
    expect(wrapper.text()).not.toContain('Automatic updates refused');
    expect(buttons(wrapper)).toEqual(expect.arrayContaining(['Add a partner connection', `Remove ${PARTNER_PROFILE.name}`]));
  });
});

describe('refused automatic updates in Settings', () => {
  it('give the reason in English and in French', async () => {
    const english = await openSettings({ ...partnerInfo(), managed: UPDATES_REFUSED });
    expect(english.text()).toContain('Automatic updates refused: this Windows build names no verified publisher (it was not signed)');
    const french = await openSettings({ ...partnerInfo(), preferences: { idleLockMinutes: 5, language: 'fr-CA' }, managed: UPDATES_REFUSED });
    expect(french.text()).toContain('Mises à jour automatiques refusées : cette version Windows ne nomme aucun éditeur vérifié');
  });
});

describe('a reason from main', () => {
  it('reads as its sentence, not its key, wherever it is shown (the lookup ErrorNotice shares)', () => {
    const wrapper = mount(ErrorNotice, {
      props: { error: { code: 'invalid-input', message: 'English for the log', reason: 'policy.profiles-frozen', params: {} }, context: 'other' },
      global: { plugins: [createDeskI18n('fr-CA')] },
    });
    expect(wrapper.text()).toContain('Les connexions ne peuvent pas être ajoutées, modifiées ni supprimées tant que la politique du service informatique est ignorée');
    expect(wrapper.text()).not.toContain('reasons.');
  });
});
