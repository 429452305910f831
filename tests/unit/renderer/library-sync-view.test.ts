// @vitest-environment happy-dom
// The Sync page of a desk in a library (issue #25), on a fake contract: it says the collection
// comes from the library mirror and when it was last filled, says how old it is and why when the
// last attempt failed (in English and in French, from main's reason), and offers no re-sync or
// full check of the service (it asks the service nothing for the collection).
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../electron/shared/contract.ts';
import { buttonNamed, mountApp, ok, partnerInfo, staffSession, syncView } from './fake-desk.ts';

const SERVER = 'mirror.library.example.org:5432/library_mirror';
const french = (info: AppInfo): AppInfo => ({ ...info, preferences: { ...info.preferences, language: 'fr-CA' } });

async function openView(wrapper: VueWrapper, name: string): Promise<void> {
  const tab = wrapper.findAll('[role="tab"]').find((t) => t.text() === name);
  if (!tab) throw new Error(`no tab ${name}`);
  await tab.trigger('click');
  await flushPromises();
}

const filled = Date.now() - 3 * 60_000;
const failedAt = Date.now() - 30_000;
const stale = syncView({
  libraryMirror: { server: SERVER },
  counts: { titles: 1200, entitlements: [{ libraryId: 4512, model: 'FLEX', active: 400, total: 410 }] },
  sources: [{
    source: 'library-mirror', inProgress: false, items: 0, lastSuccessAt: filled, lastAttemptAt: failedAt,
    lastError: 'The library mirror could not be reached (connect ECONNREFUSED).', lastErrorCode: 'network',
    lastErrorReason: 'library-mirror.unreachable', lastErrorParams: { server: SERVER },
  }],
});

describe('the Sync page of a desk in a library', () => {
  it('says where the collection comes from and when it was updated; no re-sync or full check of the service', async () => {
    const { wrapper, desk } = await mountApp(partnerInfo());
    desk.syncStatus.mockResolvedValue(ok(syncView({
      libraryMirror: { server: SERVER },
      sources: [{ source: 'library-mirror', inProgress: false, items: 20, lastSuccessAt: filled, lastAttemptAt: filled }],
    })));
    await openView(wrapper, 'Sync');
    const text = wrapper.text();
    // The server's address is IT's (Settings shows it), not the Sync page's (issue #35).
    expect(text).toMatch(/From your library’s mirror, updated .*3 minutes ago/);
    expect(text).not.toContain(SERVER);
    expect(text).toContain("This desk's collection comes from your library's mirror");
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);
    expect(wrapper.findAll('th[scope="row"]').map((th) => th.text())).toEqual(['Library mirror']);
    expect(wrapper.findAll('button').map((b) => b.text())).not.toContain('Full re-sync');
    expect(wrapper.findAll('button').map((b) => b.text())).not.toContain('Check for removed titles');
    expect(text).not.toContain('Titles the library no longer holds');
    await buttonNamed(wrapper, 'Sync now').trigger('click');
    await flushPromises();
    expect(desk.syncNow).toHaveBeenCalledWith({ full: false, entitlementsOnly: false });
  });

  it('unreachable: says since when the collection is, and why, in English', async () => {
    const { wrapper, desk } = await mountApp(partnerInfo());
    desk.syncStatus.mockResolvedValue(ok(stale));
    await openView(wrapper, 'Sync');
    expect(wrapper.get('[role="alert"]').text()).toMatch(
      /The library mirror could not be read at the last attempt, .*\. Your library’s mirror could not be reached; the desk tries again every minute\. The collection shown is as of .*3 minutes ago/);
  });

  it('and in French', async () => {
    const { wrapper, desk } = await mountApp(french(partnerInfo()));
    desk.syncStatus.mockResolvedValue(ok(stale));
    await openView(wrapper, 'Synchronisation');
    expect(wrapper.text()).toMatch(/Du miroir de votre bibliothèque, mis à jour .*il y a 3 minutes/);
    expect(wrapper.get('[role="alert"]').text()).toMatch(
      /Le miroir de la bibliothèque n’a pas pu être lu à la dernière tentative, .*\. Le miroir de votre bibliothèque est injoignable; le poste réessaie chaque minute\. La collection affichée date de .*il y a 3 minutes/);
  });
});

describe('Settings of a desk in a library', () => {
  const view = { server: SERVER, user: 'library_mirror_desk', passwordEntry: 'settings' as const, passwordSaved: false };

  it('says which library mirror and whether its password is kept; a manager may save it where the policy lets it be typed here', async () => {
    const { wrapper, desk } = await mountApp({ ...partnerInfo(), session: staffSession('Ana Lopez', 'manager') });
    desk.libraryMirror.mockResolvedValue(ok(view));
    desk.setLibraryMirrorPassword.mockResolvedValue(ok({ ...view, passwordSaved: true }));
    await buttonNamed(wrapper, 'Settings').trigger('click');
    await flushPromises();
    const section = wrapper.get('section.library-mirror');
    expect(section.text()).toContain(`This desk fills its collection from the library mirror ${SERVER}, as the role library_mirror_desk.`);
    expect(section.text()).toContain('No password for the role is kept on this computer yet');
    const input = section.get('input[type="password"]');
    await section.get('form').trigger('submit');
    expect(desk.setLibraryMirrorPassword).not.toHaveBeenCalled(); // empty: said, not sent
    expect(section.text()).toContain('Fill in this field.');
    await input.setValue('s3cret-typed-by-IT');
    await section.get('form').trigger('submit');
    await flushPromises();
    expect(desk.setLibraryMirrorPassword).toHaveBeenCalledWith({ password: 's3cret-typed-by-IT' });
    expect((input.element as HTMLInputElement).value).toBe('');
    expect(section.text()).toContain('The role’s password is kept in this computer’s keychain.');
    expect(section.get('[role="status"]').text()).toContain('Saved in this computer’s keychain.');
  });

  it('desk staff get no field where it may be typed: a manager or IT replaces it (issue #33)', async () => {
    const { wrapper, desk } = await mountApp(partnerInfo());
    desk.libraryMirror.mockResolvedValue(ok(view));
    await buttonNamed(wrapper, 'Settings').trigger('click');
    await flushPromises();
    const section = wrapper.get('section.library-mirror');
    expect(section.find('input').exists()).toBe(false);
    expect(section.text()).toContain('A manager, or your library’s IT with its own tools, replaces this password.');
  });

  it('offers no field where only IT’s tools set it, and says so in French', async () => {
    const { wrapper, desk } = await mountApp(french(partnerInfo()));
    desk.libraryMirror.mockResolvedValue(ok({ ...view, passwordEntry: 'keychain', passwordSaved: true }));
    await buttonNamed(wrapper, 'Paramètres').trigger('click');
    await flushPromises();
    const section = wrapper.get('section.library-mirror');
    expect(section.find('input').exists()).toBe(false);
    expect(section.text()).toContain('Le service informatique de votre bibliothèque définit ce mot de passe avec ses propres outils.');
    expect(section.text()).toContain('Le mot de passe du rôle est gardé dans le trousseau de cet ordinateur.');
  });

  it('shows nothing of it on a desk on its own', async () => {
    const { wrapper } = await mountApp(partnerInfo());
    await buttonNamed(wrapper, 'Settings').trigger('click');
    await flushPromises();
    expect(wrapper.find('section.library-mirror').exists()).toBe(false);
  });
});
