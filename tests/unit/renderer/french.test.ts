// @vitest-environment happy-dom
// The desk in French where the e2e host cannot go: a keychain that cannot be reached (the host
// always has one), a part of the patron view that failed to load, a loan carrying the service's
// own words, a refused argument naming its field, and the sandbox named by the locale. Main's
// English message is set to a marker that must never show.
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../electron/shared/contract.ts';
import { announced, buttonNamed, fail, mountApp, ok, partnerInfo, PATRON, sandboxInfo } from './fake-desk.ts';
import { scan, text } from './patron-desk-helpers.ts';

const MAIN_ENGLISH = 'MAIN-ENGLISH-FOR-THE-LOG';
const french = (info: AppInfo): AppInfo => ({ ...info, preferences: { ...info.preferences, language: 'fr-CA' } });

async function scanInFrench(card: string): Promise<void> {
  const input = [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === 'Carte de bibliothèque');
  const field = document.getElementById(input!.htmlFor) as HTMLInputElement;
  field.value = card;
  field.dispatchEvent(new Event('input'));
  field.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}

describe('the desk in French', () => {
  it('says the keychain cannot be reached, in French, without the native cause', async () => {
    const { wrapper, desk } = await mountApp(french(partnerInfo()));
    desk.replaceCredentials.mockResolvedValueOnce(fail('keychain-unavailable', `${MAIN_ENGLISH} (Reason: Cannot autolaunch D-Bus)`, { reason: 'keychain.unavailable', params: {} }));
    await buttonNamed(wrapper, 'Paramètres').trigger('click');
    await flushPromises();
    await buttonNamed(wrapper, 'Remplacer les identifiants de Metro Library').trigger('click');
    await flushPromises();
    const form = wrapper.get('form[aria-label="Remplacer les identifiants de Metro Library"]');
    await form.get('input[type="text"]').setValue('desk');
    await form.get('input[type="password"]').setValue('secret');
    await form.trigger('submit');
    await flushPromises();
    expect(announced('alert')).toEqual([expect.stringMatching(/^Le trousseau du système n’est pas disponible/)]);
    expect(text()).not.toContain(MAIN_ENGLISH);
    expect(text()).not.toContain('D-Bus');
  });

  it('names a refused argument and its field in French', async () => {
    const { desk } = await mountApp(french(sandboxInfo()));
    desk.lookupPatron.mockResolvedValueOnce(fail('invalid-input', MAIN_ENGLISH, { reason: 'input.too-long', params: { field: 'card', max: 64 } }));
    await scanInFrench('12345');
    expect(announced('alert')).toEqual(['Carte de bibliothèque : trop long (au plus 64 caractères).']);
  });

  it('says which part of the patron view failed in French, and quotes a loan message as the service’s', async () => {
    const { desk } = await mountApp(french(sandboxInfo()));
    desk.lookupPatron.mockResolvedValueOnce(ok({
      ...PATRON,
      loans: [{ contentId: 11, title: 'The River Road', message: 'Download before March 14.' }],
      problems: [{ part: 'holds', error: { code: 'network', message: MAIN_ENGLISH } }],
    }));
    await scanInFrench('0012345');
    expect(text()).toContain('Impossible de charger les réservations : Le service de prêt est injoignable.');
    expect(text()).toContain('Du service de prêt : « Download before March 14. »');
    expect(text()).not.toContain(MAIN_ENGLISH);
  });

  it('names the built-in sandbox in French, and keeps a partner profile’s own name', async () => {
    await mountApp(french(sandboxInfo()));
    expect(document.querySelector('header')!.textContent).toContain('Bac à sable intégré');
    expect(document.querySelector('header')!.textContent).not.toContain('Built-in sandbox');
    await mountApp(french(partnerInfo()));
    expect(document.querySelector('header')!.textContent).toContain('Metro Library');
  });
});

describe('the same desk in English', () => {
  it('shows the English of the reason, not main’s message, so both languages come from one place', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(fail('invalid-input', MAIN_ENGLISH, { reason: 'card.control-character', params: { field: 'card' } }));
    await scan('12');
    expect(announced('alert')).toEqual(['The library card contains a control character.']);
  });
});
