// @vitest-environment happy-dom
// axe-core on the patron desk's views: patron with actions, search results, the dialogs and an
// error. Colour contrast needs real layout (checked in the Chromium e2e run).
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { fail, mountApp, ok, sandboxInfo } from './fake-desk.ts';
import { button, click, hit, scan, searchFor } from './patron-desk-helpers.ts';

async function seriousViolations(): Promise<string[]> {
  const results = await axe.run(document.body);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
}

async function deskWithEverything() {
  const mounted = await mountApp(sandboxInfo());
  mounted.desk.liveSearch.mockResolvedValue(ok({ found: 45, hits: [
    hit({ titleId: 301, title: 'Paper Moons', format: 'EBOOK', purchaseModel: 'INSTANT', artist: 'Ana Lima', year: 2020, coverImageUrl: 'https://sandbox.lending-desk.invalid/c.jpg' }),
    hit({ titleId: 302, title: 'Glass Rivers', format: 'TELEVISION', purchaseModel: 'FLEX', episodes: [{ titleId: 302, episode: 1, title: 'One' }] }),
    hit({ titleId: 303 }),
  ] }));
  mounted.desk.liveAvailability.mockResolvedValue(ok([
    { contentId: 301, status: 'BORROW' }, { contentId: 302, status: 'HOLD', holdsQueueSize: 2, availableCopies: 0, totalCopies: 1 },
  ]));
  await scan('0012345');
  await searchFor('moons');
  return mounted;
}

describe('accessibility of the patron desk (axe-core)', () => {
  it('patron view with loans, holds, recent patrons and search results', async () => {
    await deskWithEverything();
    expect(await seriousViolations()).toEqual([]);
  });

  it('search results without a patron', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.liveSearch.mockResolvedValue(ok({ found: 1, hits: [hit({ titleId: 1, title: 'Alone' })] }));
    await searchFor('alone');
    expect(await seriousViolations()).toEqual([]);
  });

  it('confirmation dialog', async () => {
    await deskWithEverything();
    await click(button('Return early: The River Road, card ••••2345'));
    expect(await seriousViolations()).toEqual([]);
  });

  it('title detail dialog', async () => {
    await deskWithEverything();
    await click(button('Details for Glass Rivers'));
    expect(await seriousViolations()).toEqual([]);
  });

  it('an action error with an offer', async () => {
    const { desk } = await deskWithEverything();
    desk.borrow.mockResolvedValueOnce(fail('network', 'Could not reach the lending service.'));
    await click(button('Borrow for ••••2345: Paper Moons'));
    expect(await seriousViolations()).toEqual([]);
  });

  it('action log and shortcut help', async () => {
    const { desk } = await mountApp(sandboxInfo());
    desk.listActions.mockResolvedValueOnce(ok({ total: 1, entries: [{ time: 1_773_000_000_000, staff: 'JD', profile: 'p', libraryId: 101, card: '••••0002', action: 'borrow', contentId: 5, outcome: 'ok' }], skipped: 0 }));
    await click(button('Action log'));
    expect(await seriousViolations()).toEqual([]);
    await click(button('Close'));
    await click(button('Shortcuts'));
    expect(await seriousViolations()).toEqual([]);
  });
});
