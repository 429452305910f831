// Shared steps for the patron desk tests: scan a card, search, find things by name.
import { flushPromises } from '@vue/test-utils';
import type { SearchHit } from '../../../electron/shared/model.ts';
import { inputLabelled } from './fake-desk.ts';

export async function scan(card: string): Promise<void> {
  const input = inputLabelled('Library card') as HTMLInputElement;
  input.value = card;
  input.dispatchEvent(new Event('input'));
  input.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}

export async function searchFor(query: string): Promise<void> {
  const input = inputLabelled('Search the catalog') as HTMLInputElement;
  input.value = query;
  input.dispatchEvent(new Event('input'));
  input.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}

export function hit(fields: Partial<SearchHit>): SearchHit {
  return { artists: [], genres: [], episodes: [], segments: [], ...fields };
}

/** An element's accessible name as a screen reader hears it: aria-label, else its text without what is aria-hidden (a key shown beside an offer). */
export function accessibleName(element: Element): string {
  const label = element.getAttribute('aria-label');
  if (label !== null) return label;
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A button by its accessible name (aria-label, else text), anywhere in the document. */
export function button(name: string, within: ParentNode = document): HTMLButtonElement {
  const found = [...within.querySelectorAll('button')].find((b) => accessibleName(b) === name);
  if (!found) throw new Error(`No button named "${name}"`);
  return found;
}

export function hasButton(name: string, within: ParentNode = document): boolean {
  return [...within.querySelectorAll('button')].some((b) => accessibleName(b) === name);
}

export function dialog(): HTMLElement | null {
  return document.querySelector('[role="dialog"]');
}

export async function press(key: string, init: KeyboardEventInit = {}, target: EventTarget = document.activeElement ?? document.body): Promise<void> {
  target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
  await flushPromises();
}

export async function click(element: HTMLElement): Promise<void> {
  element.click();
  await flushPromises();
}

export function text(): string {
  return document.body.textContent ?? '';
}

export function expectNoJunk(content: string): void {
  for (const junk of ['undefined', 'NaN', '1970', 'null', 'Invalid Date']) {
    if (content.includes(junk)) throw new Error(`The screen shows "${junk}": ${content}`);
  }
}
