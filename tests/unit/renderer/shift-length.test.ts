// @vitest-environment happy-dom
// The longest shift (issue #33): main locks a shift that reached IT's longest, however busy the
// desk looked, and the lock screen says why, in English and in French.
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../electron/shared/contract.ts';
import { mountApp, sandboxInfo } from './fake-desk.ts';

const french = (info: AppInfo): AppInfo => ({ ...info, preferences: { ...info.preferences, language: 'fr-CA' } });

describe('a shift that reached the longest IT allows', () => {
  it.each([
    ['en', sandboxInfo(), 'Desk locked', "The shift reached the longest your library's IT allows, so the desk locked itself."],
    ['fr-CA', french(sandboxInfo()), 'Comptoir verrouillé', 'Le quart a atteint la durée maximale permise par le service informatique de votre bibliothèque : le comptoir s’est donc verrouillé.'],
  ])('locks with its own reason on the lock screen (%s)', async (_language, info, title, reason) => {
    const { wrapper, desk } = await mountApp(info);
    desk.emit('sessionLocked', { reason: 'shift-length' });
    await flushPromises();
    expect(wrapper.get('h1').text()).toBe(title);
    expect(wrapper.text()).toContain(reason);
    expect(desk.lockSession).not.toHaveBeenCalled();
  });
});
