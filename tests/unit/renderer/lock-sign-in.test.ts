// @vitest-environment happy-dom
// Signing in at the shift-start and lock screens, with the contract stubbed: the PIN field, what
// a wrong PIN and the wait say, the desk PIN set on a desk without one (what it asks depends on
// the desk), changing it, and per-staff PINs where the desk PIN cannot be changed here.
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../electron/shared/contract.ts';
import { announced, fail, inputLabelled, mountApp, ok, partnerInfo, sandboxInfo } from './fake-desk.ts';
import { button, click, hasButton, text } from './patron-desk-helpers.ts';

function type(label: string, value: string): void {
  const input = inputLabelled(label) as HTMLInputElement;
  input.value = value;
  input.dispatchEvent(new Event('input'));
}
async function submit(label: string): Promise<void> {
  inputLabelled(label).closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}
const withSignIn = (info: AppInfo, signIn: Partial<AppInfo['signIn']>): AppInfo => ({ ...info, signIn: { ...info.signIn, ...signIn } });

describe('signing in', () => {
  it('a wrong PIN: main says so, the PIN is cleared and focused, the name stays', async () => {
    const { desk } = await mountApp(withSignIn(sandboxInfo(false), { method: 'staff-pins', deskPinNeeds: 'policy' }));
    desk.startShift.mockResolvedValueOnce(fail('unauthorized', 'The name or PIN is not right.', { reason: 'sign-in.wrong', params: {} }));
    type('Enter your name or initials to start', 'JD');
    type('PIN', '000000');
    await submit('PIN');
    expect(announced('alert')).toEqual(['The name or PIN is not right.']);
    expect((inputLabelled('PIN') as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(inputLabelled('PIN'));
    expect((inputLabelled('Enter your name or initials to start') as HTMLInputElement).value).toBe('JD');
    expect(inputLabelled('PIN').getAttribute('type')).toBe('password');
    expect(text()).not.toContain('000000');
  });

  it('too many wrong tries: the wait, in seconds, from main, and on screen when the desk opens during one', async () => {
    const { desk } = await mountApp(withSignIn(sandboxInfo(false), { waitSeconds: 45 }));
    expect(announced('alert')).toEqual(['Too many wrong tries. The desk takes the next try in 45 seconds.']);
    desk.startShift.mockResolvedValueOnce(fail('rate-limited', 'Too many wrong tries.', { reason: 'sign-in.wait', params: { seconds: 60 } }));
    type('PIN', '111111');
    await submit('PIN');
    expect(announced('alert')).toEqual(['Too many wrong tries. The desk takes the next try in 60 seconds.']);
  });

  it('per-staff PINs: asks for the name as IT set it up, and offers no desk PIN change', async () => {
    await mountApp(withSignIn(sandboxInfo(false), { method: 'staff-pins', deskPinNeeds: 'policy' }));
    expect(text()).toContain('Enter your name as your library’s IT set it up, and your own PIN.');
    expect(hasButton('Change the desk PIN')).toBe(false);
  });
});

describe('the desk PIN', () => {
  it('a training desk without one: set first (at least 6 characters, typed twice), then sign in with it', async () => {
    const { desk } = await mountApp(withSignIn(sandboxInfo(false), { ready: false, deskPinNeeds: 'nothing' }));
    expect(text()).toContain('Set the desk PIN');
    expect(text()).toContain('This desk uses only the training sandbox');
    expect(() => inputLabelled('PIN')).toThrow();
    expect(document.activeElement).toBe(inputLabelled('New desk PIN'));
    type('New desk PIN', '1234');
    type('New desk PIN again', '1234');
    await submit('New desk PIN');
    expect(announced('alert')).toEqual(['A PIN must be at least 6 characters.']);
    type('New desk PIN', '123456');
    type('New desk PIN again', '123456');
    await submit('New desk PIN');
    expect(announced('alert')).toEqual([expect.stringMatching(/^That PIN is too easy to guess/)]);
    type('New desk PIN', 'maple-2026');
    type('New desk PIN again', 'maple-2062');
    await submit('New desk PIN');
    expect(announced('alert')).toEqual(['The two new PINs are not the same.']);
    expect(desk.setDeskPin).not.toHaveBeenCalled();
    desk.setDeskPin.mockResolvedValueOnce(ok(withSignIn(sandboxInfo(false), { ready: true, deskPinNeeds: 'current-pin' })));
    type('New desk PIN again', 'maple-2026');
    await submit('New desk PIN');
    expect(desk.setDeskPin).toHaveBeenCalledWith({ pin: 'maple-2026' });
    expect(announced('status')).toContain('The desk PIN is set. Sign in with it.');
    expect(inputLabelled('PIN')).toBeTruthy();
    expect(() => inputLabelled('New desk PIN')).toThrow();
  });

  it("a preset partner connection with no password saved here: asks the partner username and password, and shows main's refusal", async () => {
    const { desk } = await mountApp(withSignIn(partnerInfo(false), { ready: false, deskPinNeeds: 'partner-password', partnerUsernameNeeded: true }));
    expect(text()).toContain('No partner password for “Metro Library” is saved on this computer yet');
    type('New desk PIN', 'harbour-77');
    type('New desk PIN again', 'harbour-77');
    await submit('New desk PIN');
    expect(announced('alert')).toEqual(['Enter the partner username.']);
    desk.setDeskPin.mockResolvedValueOnce(fail('unauthorized', 'That is not the partner password of "Metro Library".', { reason: 'pin.partner-password-wrong', params: { profile: 'Metro Library' } }));
    type('Partner username', 'metro-desk');
    type('Partner password', 'not-it');
    type('New desk PIN', 'harbour-77');
    type('New desk PIN again', 'harbour-77');
    await submit('New desk PIN');
    expect(desk.setDeskPin).toHaveBeenCalledWith({ pin: 'harbour-77', partnerUsername: 'metro-desk', partnerPassword: 'not-it' });
    expect(announced('alert')).toEqual(['That is not the partner password of "Metro Library".']);
    // Nothing typed stays in the form after a try but the username.
    expect((inputLabelled('Partner password') as HTMLInputElement).value).toBe('');
    expect((inputLabelled('New desk PIN') as HTMLInputElement).value).toBe('');
    expect((inputLabelled('Partner username') as HTMLInputElement).value).toBe('metro-desk');
  });

  it('changing it on a locked desk takes the current PIN (a sandbox-only desk); Cancel goes back to signing in', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await click(button('Lock'));
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    await click(button('Change the desk PIN'));
    expect(text()).toContain('Changing it takes the current desk PIN.');
    await click(button('Cancel'));
    expect(inputLabelled('PIN')).toBeTruthy();
    await click(button('Change the desk PIN'));
    type('Current desk PIN', '246813');
    type('New desk PIN', 'birch-2027');
    type('New desk PIN again', 'birch-2027');
    await submit('New desk PIN');
    expect(desk.setDeskPin).toHaveBeenCalledWith({ pin: 'birch-2027', currentPin: '246813' });
    expect(announced('status')).toContain('The desk PIN is set. Sign in with it.');
  });
});
