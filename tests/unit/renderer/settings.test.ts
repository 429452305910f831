// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { announced, buttonNamed, fail, inputLabelled, mountApp, partnerInfo, sandboxInfo } from './fake-desk.ts';

async function openSettings(wrapper: VueWrapper) {
  await buttonNamed(wrapper, 'Settings').trigger('click');
  await flushPromises();
}

function setValue(label: string, value: string): void {
  const control = inputLabelled(label);
  control.value = value;
  control.dispatchEvent(new Event(control.tagName === 'SELECT' ? 'change' : 'input'));
}

describe('settings', () => {
  it('opens focused on its heading and Esc returns to the card field', async () => {
    const { wrapper } = await mountApp(sandboxInfo());
    await openSettings(wrapper);
    expect(document.activeElement?.textContent).toBe('Settings');
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await flushPromises();
    expect(wrapper.find('#settings-heading').exists()).toBe(false);
    expect(document.activeElement).toBe(inputLabelled('Library card'));
  });

  it('saves idle minutes and language, and the desk switches to French', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await openSettings(wrapper);
    setValue('Lock the desk after this many minutes without activity', '10');
    setValue('Language', 'fr-CA');
    await buttonNamed(wrapper, 'Save preferences').trigger('click');
    await wrapper.get('#settings-preferences + form').trigger('submit');
    await flushPromises();
    expect(desk.updatePreferences).toHaveBeenCalledTimes(1);
    expect(desk.updatePreferences).toHaveBeenCalledWith({ idleLockMinutes: 10, language: 'fr-CA' });
    expect(buttonNamed(wrapper, 'Verrouiller').exists()).toBe(true);
    expect(wrapper.text()).toContain('BAC À SABLE');
    expect(document.documentElement.lang).toBe('fr-CA');
  });

  it('refuses minutes outside 1..30 (an unmanaged desk) before sending, and keeps values when main refuses', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await openSettings(wrapper);
    setValue('Lock the desk after this many minutes without activity', '0');
    await wrapper.get('#settings-preferences + form').trigger('submit');
    await flushPromises();
    expect(desk.updatePreferences).not.toHaveBeenCalled();
    expect(wrapper.text()).toContain('Enter a whole number from 1 to 30.');
    setValue('Lock the desk after this many minutes without activity', '31');
    await wrapper.get('#settings-preferences + form').trigger('submit');
    await flushPromises();
    expect(desk.updatePreferences).not.toHaveBeenCalled();

    desk.updatePreferences.mockResolvedValueOnce(fail('invalid-input', 'Settings could not be written.', { reason: 'settings.idle-lock', params: {} }));
    setValue('Lock the desk after this many minutes without activity', '30');
    await wrapper.get('#settings-preferences + form').trigger('submit');
    await flushPromises();
    expect(announced('alert')).toContain('Idle lock must be a whole number of minutes from 1 to 240.');
    expect(document.body.textContent).not.toContain('Settings could not be written.'); // main's English is for the log
    expect(inputLabelled('Lock the desk after this many minutes without activity').value).toBe('30');
  });

  it('lists profiles and activates another one', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await openSettings(wrapper);
    expect(desk.listProfiles).toHaveBeenCalled();
    expect(wrapper.text()).toContain('Metro Library');
    await buttonNamed(wrapper, 'Activate Metro Library').trigger('click');
    await flushPromises();
    expect(desk.activateProfile).toHaveBeenCalledWith({ profileId: 'metro' });
    expect(wrapper.text()).not.toContain('SANDBOX');
    expect(announced('status')).toContain('Metro Library is now the active connection.');
  });

  it('replaces and forgets credentials, emptying the password once saved', async () => {
    const { wrapper, desk } = await mountApp(partnerInfo());
    await openSettings(wrapper);
    await buttonNamed(wrapper, 'Replace credentials for Metro Library').trigger('click');
    await flushPromises();
    const form = wrapper.get('form[aria-label="Replace credentials for Metro Library"]');
    (form.get('input[type="text"]').element as HTMLInputElement).value = 'new-user';
    await form.get('input[type="text"]').trigger('input');
    await form.get('input[type="password"]').setValue('new-pass');
    await form.trigger('submit');
    await flushPromises();
    expect(desk.replaceCredentials).toHaveBeenCalledWith({ profileId: 'metro', username: 'new-user', password: 'new-pass' });
    expect(wrapper.find('input[type="password"]').exists()).toBe(false);
    expect(announced('status')).toContain('New credentials saved for Metro Library.');

    await buttonNamed(wrapper, 'Forget credentials for Metro Library').trigger('click');
    await flushPromises();
    expect(desk.forgetCredentials).toHaveBeenCalledWith({ profileId: 'metro' });
  });

  it('removes a profile only after confirmation', async () => {
    const { wrapper, desk } = await mountApp(partnerInfo());
    await openSettings(wrapper);
    await buttonNamed(wrapper, 'Remove Metro Library').trigger('click');
    expect(desk.removeProfile).not.toHaveBeenCalled();
    expect(wrapper.text()).toContain('Remove the connection Metro Library?');
    await buttonNamed(wrapper, 'Yes, remove').trigger('click');
    await flushPromises();
    expect(desk.removeProfile).toHaveBeenCalledWith({ profileId: 'metro' });
  });

  it('adds a partner connection with the first-run form, and offers the sandbox', async () => {
    const { wrapper, desk } = await mountApp(partnerInfo());
    await openSettings(wrapper);
    await buttonNamed(wrapper, 'Add a partner connection').trigger('click');
    expect(wrapper.find('form[aria-label="Partner connection"]').exists()).toBe(true);
    await buttonNamed(wrapper, 'Use the built-in sandbox').trigger('click');
    await flushPromises();
    expect(desk.useSandbox).toHaveBeenCalledTimes(1);
    expect(wrapper.text()).toContain('SANDBOX — training data, no real patrons');
  });
});
