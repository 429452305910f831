// How the window benches type: words a letter at a time, about ten letters a second, each key
// timed by the page itself (the caller's `timeKey` waits for the page's own figure for the text
// typed so far), the box cleared between words (not a keystroke: no figure).
import type { Page } from 'playwright-core';

const TYPING_GAP_MS = 100;

export async function typeWordsTimed(
  page: Page, words: readonly string[], timeKey: (typed: string) => Promise<number>, clear: () => Promise<void>,
): Promise<number[]> {
  const ms: number[] = [];
  for (const word of words) {
    let typed = '';
    for (const char of word) {
      typed += char;
      await page.keyboard.type(char);
      ms.push(await timeKey(typed));
      await page.waitForTimeout(TYPING_GAP_MS);
    }
    await clear();
  }
  return ms;
}
