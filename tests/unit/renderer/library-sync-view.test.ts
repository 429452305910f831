// @vitest-environment happy-dom
// The Sync page of a desk in a library (issue #25), on a fake contract: it says the collection
// comes from the library mirror and when it was last filled, says how old it is and why when the
// last attempt failed (in English and in French, from main's reason), and offers no re-sync or
// full check of the service (it asks the service nothing for the collection).
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../electron/shared/contract.ts';
import { buttonNamed, mountApp, ok, partnerInfo, syncView } from './fake-desk.ts';

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
    expect(text).toMatch(new RegExp(`From the library mirror \\(${SERVER}\\), updated .*3 minutes ago`));
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
      new RegExp(`The library mirror could not be read at the last attempt, .*\\. The library mirror \\(${SERVER}\\) could not be reached; the desk tries again every minute\\. The collection shown is as of .*3 minutes ago`));
  });

  it('and in French', async () => {
    const { wrapper, desk } = await mountApp(french(partnerInfo()));
    desk.syncStatus.mockResolvedValue(ok(stale));
    await openView(wrapper, 'Synchronisation');
    expect(wrapper.text()).toMatch(new RegExp(`Du miroir de la bibliothèque \\(${SERVER}\\), mis à jour .*il y a 3 minutes`));
    expect(wrapper.get('[role="alert"]').text()).toMatch(
      new RegExp(`Le miroir de la bibliothèque n’a pas pu être lu à la dernière tentative, .*\\. Le miroir de la bibliothèque \\(${SERVER}\\) est injoignable ; le poste réessaie chaque minute\\. La collection affichée date de .*il y a 3 minutes`));
  });
});
