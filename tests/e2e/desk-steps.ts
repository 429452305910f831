// Steps the end-to-end specs share (the phone-call specs of issue #14 first): open the desk on
// the built-in sandbox in a language and start a shift, scan a card, build a patron through the Chromium host's sandbox door, find titles
// by lending model and live status, check what is on screen without scrolling, run axe, and
// take the screenshots at both sizes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { ContentId } from '../../electron/shared/content-id.ts';
import { createDeskI18n } from '../../src/i18n/index.ts';
import { SCREENSHOT_DIR, TEST_DESK_PIN, expect, test } from './hosts.ts';

export type Language = 'en' | 'fr-CA';
export const LIBRARY = 101;
export const SIZES = [{ width: 1280, height: 800 }, { width: 1024, height: 700 }] as const;
export const LANGUAGES: Language[] = ['en', 'fr-CA'];
export const STEERS_SANDBOX = "Steers the sandbox through the Chromium test host's admin routes; the product's in-process sandbox has none.";

/** The desk's own text for a key, as the renderer would show it (plurals and French elision included). */
export function say(language: Language, key: string, named: Record<string, unknown> = {}, plural?: number): string {
  const { t } = createDeskI18n(language).global;
  return plural === undefined ? t(key, named) : t(key, named, plural);
}

export async function openDesk(page: Page, language: Language = 'en'): Promise<void> {
  if (language !== 'en') {
    await page.evaluate(async (lang) => { await window.lendingDesk.updatePreferences({ language: lang }); }, language);
    await page.reload();
  }
  await page.getByRole('button', { name: say(language, 'firstRun.useSandbox') }).click();
  await signInWithDeskPin(page, language);
  await expect(page.locator('#card-entry-input')).toBeFocused();
}

/** The shared desk PIN alone (issue #35: no typed name; the log says "desk PIN"), then the desk. */
export async function signInWithDeskPin(page: Page, language: Language = 'en', pin = TEST_DESK_PIN): Promise<void> {
  await page.getByLabel(say(language, 'pin.label'), { exact: true }).fill(pin);
  await page.keyboard.press('Enter');
  await expect(page.getByText(say(language, 'desk.onShift', { name: say(language, 'log.deskPin') }))).toBeVisible();
}

/** A scanner: the card's characters, then Enter, into the card field (focused first with F2). */
export async function scan(page: Page, card: string): Promise<void> {
  await page.keyboard.press('F2');
  await expect(page.locator('#card-entry-input')).toBeFocused();
  await page.keyboard.type(card);
  await page.keyboard.press('Enter');
}

export function sandboxUrl(page: Page): string {
  const url = new URL(page.url());
  if (url.protocol !== 'http:') throw new Error('The sandbox admin routes exist only in the Chromium test host.');
  return url.origin;
}

export async function addPatron(page: Page, card: string, borrowsAllowedPerMonth?: number): Promise<void> {
  const response = await fetch(`${sandboxUrl(page)}/__sandbox/patrons`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ libraryId: LIBRARY, card, ...(borrowsAllowedPerMonth === undefined ? {} : { borrowsAllowedPerMonth }) }),
  });
  expect(response.status).toBeLessThan(300);
}

export async function patronState(page: Page, card: string): Promise<{ loans: ContentId[]; holds: ContentId[] }> {
  const response = await fetch(`${sandboxUrl(page)}/__sandbox/patron-state?libraryId=${LIBRARY}&card=${encodeURIComponent(card)}`);
  return (await response.json()) as { loans: ContentId[]; holds: ContentId[] };
}

/**
 * The desk's copy of the Collection, synced once through the page's own contract: a search
 * result borrows the content the copy says it stands for (issue #24), as on a desk in use.
 */
export async function syncCollection(page: Page): Promise<void> {
  const failed = await page.evaluate(async () => {
    const status = await window.lendingDesk.syncStatus();
    if (status.ok && status.value.sources.some((s) => s.source === 'global' && s.lastSuccessAt !== undefined)) return undefined;
    const synced = await window.lendingDesk.syncNow({ full: false });
    return synced.ok ? undefined : `${synced.error.code}: ${synced.error.message}`;
  });
  expect(failed, 'the Collection synced').toBeUndefined();
}

export interface Title { contentId: ContentId; title: string }

/**
 * Titles of a lending model whose live status is `status`, each with a name a search finds
 * alone (so the UI can be driven by it), through the page's own contract: each search result's
 * content as the desk's copy of the Collection resolves it (never its titleId).
 */
export async function titles(
  page: Page, purchaseModel: 'INSTANT' | 'FLEX', status: 'BORROW' | 'HOLD', count: number, skip: ContentId[] = [], maxFreeCopies = Infinity,
): Promise<Title[]> {
  await syncCollection(page);
  const found = await page.evaluate(async ({ libraryId, purchaseModel, status, count, skip, copies }) => {
    const picked: { contentId: ContentId; title: string }[] = [];
    for (let offset = 0; offset <= 3000 && picked.length < count; offset += 100) {
      const page = await window.lendingDesk.liveSearch({ libraryId, q: 'e', offset, limit: 100, purchaseModel });
      if (!page.ok) throw new Error(page.error.message);
      const hits = page.value.hits.filter((h) => h.titleId !== undefined && h.title && h.format !== 'TELEVISION');
      if (hits.length === 0) break;
      const resolved = await window.lendingDesk.titleContents({ libraryId, titleIds: hits.map((h) => h.titleId!) });
      if (!resolved.ok) throw new Error(resolved.error.message);
      const single = resolved.value.flatMap((r) => ('contents' in r && r.contents.length === 1 && !skip.includes(r.contents[0]!.contentId)
        ? [{ titleId: r.titleId, contentId: r.contents[0]!.contentId }] : []));
      if (single.length === 0) continue;
      const live = await window.lendingDesk.liveAvailability({ libraryId, contentIds: single.map((c) => c.contentId) });
      if (!live.ok) throw new Error(live.error.message);
      for (const a of live.value.filter((x) => x.status === status && (x.availableCopies ?? 1) <= copies)) {
        const titleId = single.find((c) => c.contentId === a.contentId)!.titleId;
        const hit = hits.find((h) => h.titleId === titleId)!;
        if (picked.some((p) => p.title === hit.title)) continue;
        const alone = await window.lendingDesk.liveSearch({ libraryId, q: hit.title!, limit: 5, purchaseModel });
        if (alone.ok && alone.value.found === 1) picked.push({ contentId: a.contentId, title: hit.title! });
        if (picked.length === count) break;
      }
    }
    return picked;
  }, { libraryId: LIBRARY, purchaseModel, status, count, skip, copies: maxFreeCopies === Infinity ? 1e9 : maxFreeCopies });
  if (found.length < count) throw new Error(`Only ${found.length} ${purchaseModel} titles with status ${status} in the sandbox`);
  return found;
}

/** Through the contract, as another desk would: the patron's account changes behind the screen. */
export async function act(page: Page, method: 'borrow' | 'placeHold', card: string, contentId: ContentId): Promise<void> {
  const result = await page.evaluate(async ({ method, card, contentId, libraryId }) => window.lendingDesk[method]({ libraryId, card, contentId }), { method, card, contentId, libraryId: LIBRARY });
  expect(result.ok, JSON.stringify(result)).toBe(true);
}

/** Other patrons borrow every free copy of a Flex title, so a hold is what is left to offer. */
export async function takeEveryCopy(page: Page, contentId: ContentId): Promise<void> {
  const free = await page.evaluate(async ({ libraryId, contentId }) => {
    const live = await window.lendingDesk.liveAvailability({ libraryId, contentIds: [contentId] });
    return live.ok ? live.value[0]?.availableCopies ?? 0 : 0;
  }, { libraryId: LIBRARY, contentId });
  for (let n = 0; n < free; n++) {
    const other = `21101990${String(contentId).replace(/[^0-9A-Za-z]/g, '').padStart(5, '0')}${n}`.slice(0, 20);
    await addPatron(page, other);
    await act(page, 'borrow', other, contentId);
  }
}

/** A row of the patron's loans or holds, by its title. */
export function row(page: Page, list: 'loans' | 'holds', title: string): Locator {
  return page.locator(`section[aria-labelledby="patron-${list}-heading"] li`).filter({ has: page.getByText(title, { exact: true }) });
}

export function result(page: Page, title: string): Locator {
  return page.locator('ul.results > li').filter({ has: page.getByText(title, { exact: true }) });
}

/** Whole inside the window as it is, without scrolling (and not cut off at either side). */
export async function expectOnScreen(locator: Locator, what: string): Promise<void> {
  await expect(locator, what).toBeVisible();
  const page = locator.page();
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, what).not.toBeNull();
  expect(await page.evaluate(() => window.scrollY), `${what}: the page was scrolled`).toBe(0);
  expect(box!.y, `${what} starts above the window`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} ends below the window (${viewport.width}x${viewport.height})`).toBeLessThanOrEqual(viewport.height);
  expect(box!.x + box!.width, `${what} is cut off at the right`).toBeLessThanOrEqual(viewport.width);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core in real Chromium (colour contrast needs layout): every violation of any impact. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE); // evaluated by the driver, so the page's CSP does not apply
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { html: string }[] }[] };
    const axe = (window as unknown as { axe: { run(context: Document): Promise<Result> } }).axe;
    const results = await axe.run(document);
    return results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.html).slice(0, 3).join(' | ')}`);
  });
}

/** A project that runs the specs again on a strict sandbox keeps its screenshots apart (`-published`). */
function projectSuffix(): string {
  const project = test.info().project.name;
  return project.startsWith('chromium-host-') ? `-${project.slice('chromium-host-'.length)}` : '';
}

/**
 * Screenshots of the screen as it is, at both sizes (the page at its top, or scrolled just enough
 * to `show` something), each followed by `check` at that size; nothing may overflow sideways.
 */
export async function screenshots(
  page: Page, name: string, language: Language, check?: (size: { width: number; height: number }) => Promise<void>, show?: Locator,
): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await show?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}${projectSuffix()}-${language}-${size.width}x${size.height}.png`) });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await check?.(size);
  }
  await page.setViewportSize(SIZES[0]);
}

/** What has keyboard focus, described for a failing assertion. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 60)}"` : 'nothing';
  });
}
