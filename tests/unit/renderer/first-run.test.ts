// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { getActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import { announced, buttonNamed, fail, inputLabelled, mountApp, ok, partnerInfo, sandboxInfo, unconfigured } from './fake-desk.ts';

async function typeInto(label: string, value: string): Promise<void> {
  const input = inputLabelled(label);
  input.value = value;
  input.dispatchEvent(new Event(input.tagName === 'SELECT' ? 'change' : 'input'));
  await flushPromises();
}

async function fillPartnerForm(): Promise<void> {
  await typeInto('Profile name', ' Metro Library ');
  await typeInto('Base URL', 'https://partner.example.org');
  await typeInto('Username', 'metro-desk');
  await typeInto('Password', 's3cret pass');
  await typeInto('Library ids', '7, 8 8');
  await typeInto('Country', 'CA');
}

describe('first run', () => {
  it('offers the sandbox first, focused, and explains it holds no real patrons', async () => {
    const { wrapper } = await mountApp(unconfigured());
    expect(wrapper.get('h1').text()).toBe('Welcome to Lending Desk');
    const sandbox = buttonNamed(wrapper, 'Use the built-in sandbox');
    expect(document.activeElement).toBe(sandbox.element);
    expect(wrapper.text()).toContain('No real patron is involved');
    expect(wrapper.text()).not.toContain('SANDBOX — training data');
  });

  it('uses the sandbox once however often it is clicked, then asks who is on shift under the banner', async () => {
    const { wrapper, desk } = await mountApp(unconfigured());
    let answer!: (value: ReturnType<typeof ok>) => void;
    desk.useSandbox.mockReturnValueOnce(new Promise((resolve) => { answer = resolve as typeof answer; }));
    const sandbox = buttonNamed(wrapper, 'Use the built-in sandbox');
    await sandbox.trigger('click');
    await sandbox.trigger('click');
    expect(sandbox.element.disabled).toBe(true);
    answer(ok(sandboxInfo(false)));
    await flushPromises();
    expect(desk.useSandbox).toHaveBeenCalledTimes(1);
    expect(wrapper.get('h1').text()).toBe('Start your shift');
    expect(wrapper.text()).toContain('SANDBOX — training data, no real patrons');
    expect(document.activeElement).toBe(inputLabelled('PIN')); // the desk PIN alone (issue #35)
  });

  it('checks the partner form before sending anything and focuses the first field to fix', async () => {
    const { wrapper, desk } = await mountApp(unconfigured());
    await buttonNamed(wrapper, 'Save and connect').trigger('click');
    await wrapper.get('form[aria-label="Partner connection"]').trigger('submit');
    await flushPromises();
    expect(desk.savePartnerProfile).not.toHaveBeenCalled();
    expect(wrapper.findAll('[aria-invalid="true"]').length).toBe(5);
    expect(wrapper.text()).toContain('Fill in this field.');
    expect(announced('alert').join(' ')).toContain('Some fields need attention');
    expect(document.activeElement).toBe(inputLabelled('Profile name'));

    await typeInto('Base URL', 'partner.example.org');
    await typeInto('Library ids', '12, abc');
    await wrapper.get('form[aria-label="Partner connection"]').trigger('submit');
    await flushPromises();
    expect(wrapper.text()).toContain('Enter a full web address that starts with https:// or http://.');
    expect(wrapper.text()).toContain('Enter one or more library ids: whole numbers above zero.');
    expect(desk.savePartnerProfile).not.toHaveBeenCalled();
  });

  it('tests the connection with what was typed and reports the token time', async () => {
    const { wrapper, desk } = await mountApp(unconfigured());
    await fillPartnerForm();
    await buttonNamed(wrapper, 'Test connection').trigger('click');
    await flushPromises();
    expect(desk.testPartnerConnection).toHaveBeenCalledWith({
      baseUrl: 'https://partner.example.org', wsApi: '2.1', username: 'metro-desk', password: 's3cret pass',
    });
    expect(announced('status')).toContain('The connection works: the service issued a token in 42 ms.');
  });

  it("says the credentials were refused (in the desk's words, not main's English) and keeps every typed value", async () => {
    const { wrapper, desk } = await mountApp(unconfigured());
    desk.savePartnerProfile.mockResolvedValueOnce(fail('unauthorized', 'The partner service refused these credentials.'));
    await fillPartnerForm();
    await buttonNamed(wrapper, 'Save and connect').trigger('click');
    await flushPromises();
    expect(document.querySelectorAll('[role="alert"]')).toHaveLength(1);
    expect(announced('alert')).toEqual(['The lending service refused this username or password. Check them and try again.']);
    expect(inputLabelled('Profile name').value).toBe(' Metro Library ');
    expect(inputLabelled('Password').value).toBe('s3cret pass');
    expect(inputLabelled('Library ids').value).toBe('7, 8 8');
    expect(inputLabelled('Country').value).toBe('CA');
    expect(buttonNamed(wrapper, 'Save and connect').element.disabled).toBe(false);
  });

  it('saves the profile once, never keeps the password in a store, and moves on to shift start', async () => {
    const { wrapper, desk } = await mountApp(unconfigured());
    await fillPartnerForm();
    const save = buttonNamed(wrapper, 'Save and connect');
    await save.trigger('click');
    await save.trigger('click');
    await flushPromises();
    expect(desk.savePartnerProfile).toHaveBeenCalledTimes(1);
    expect(desk.savePartnerProfile).toHaveBeenCalledWith({
      profile: { name: 'Metro Library', baseUrl: 'https://partner.example.org', libraries: [{ libraryId: 7 }, { libraryId: 8 }], wsApi: '2.1', country: 'CA' },
      username: 'metro-desk',
      password: 's3cret pass',
    });
    expect(JSON.stringify(getActivePinia()!.state.value)).not.toContain('s3cret');
    expect(wrapper.get('h1').text()).toBe('Start your shift');
    expect(wrapper.text()).not.toContain('SANDBOX');
    expect(partnerInfo(false).session).toBeUndefined();
  });
});
