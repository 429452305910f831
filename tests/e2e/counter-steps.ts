// Steps the counter specs share (issue #35): a machine policy of the spec's own (each library's
// card rules, names, roles), cards that keep or break those rules, the sandbox's request log (what
// the service saw), and the measure of labels cut off or wrapped past two lines.
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { LoadMachinePolicyOptions } from '../../electron/main/policy/index.ts';
import type { LoggedRequest } from '../../electron/main/sandbox/request-log.ts';
import { expect } from './hosts.ts';
import { sandboxUrl } from './desk-steps.ts';

/** A folder only root can write, holding the policy the Chromium host reads as the machine's (as managed.spec.ts does). */
export function policyFolder(): { use: LoadMachinePolicyOptions; write(policy: object): void; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'lending-desk-e2e-counter-'));
  chmodSync(root, 0o755);
  const file = join(root, 'policy.json');
  return {
    use: { platform: 'linux', linux: { path: file, trustRoot: root } },
    write(policy) {
      writeFileSync(file, JSON.stringify(policy), { mode: 0o644 });
      chmodSync(file, 0o644);
      chownSync(file, 0, 0);
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export { LIBRARY_RULES, mapleCard, riversideCard, riversideItem, wrongDigit } from '../support/library-rules.ts';

/** A patron the sandbox knows, at either library. */
export async function addPatronAt(page: Page, libraryId: number, card: string): Promise<void> {
  const response = await fetch(`${sandboxUrl(page)}/__sandbox/patrons`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ libraryId, card }),
  });
  expect(response.status).toBeLessThan(300);
}

/** Every request the sandbox (the lending service here) saw from `from` on. */
export async function requestsSince(page: Page, from: number): Promise<LoggedRequest[]> {
  const response = await fetch(`${sandboxUrl(page)}/__sandbox/request-log?from=${from}`);
  return (await response.json()) as LoggedRequest[];
}

/** The sequence number the sandbox's next request will get. */
export async function nextRequest(page: Page): Promise<number> {
  const seen = await requestsSince(page, 0);
  return (seen.at(-1)?.seq ?? -1) + 1;
}

/**
 * Labels staff read (buttons, field labels, tabs, column headings, headings, tags, a select's
 * chosen option, the Collection's availability cells) that are cut off or wrap past two lines,
 * among those on screen: one line each, "what: why".
 */
export function overflowingLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const canvas = document.createElement('canvas').getContext('2d')!;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50)}"`;
    const onScreen = (el: HTMLElement) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight && !el.closest('.visually-hidden');
    };
    const selector = 'button, label, [role="tab"], th, [role="columnheader"], summary, h1, h2, h3, .tag, select, .col-availability .availability';
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (!onScreen(el)) continue;
      const style = getComputedStyle(el);
      if (el instanceof HTMLSelectElement) {
        canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const text = el.selectedOptions[0]?.text ?? '';
        const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 18; // the arrow
        if (canvas.measureText(text).width > room) problems.push(`${name(el)}: its choice "${text}" is cut off`);
        continue;
      }
      if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible') problems.push(`${name(el)}: cut off`);
      const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
      const inner = el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
      if (el.classList.contains('availability')) {
        const lines = [...el.children].reduce((sum, child) => sum + Math.round(child.getBoundingClientRect().height / parseFloat(getComputedStyle(child).lineHeight || '16')), 0);
        if (lines > 2) problems.push(`${name(el)}: ${lines} lines`);
      } else if (inner / lineHeight > 2.5) problems.push(`${name(el)}: ${Math.round(inner / lineHeight)} lines`);
    }
    return problems;
  });
}
