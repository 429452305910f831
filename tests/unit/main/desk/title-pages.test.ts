// The hosts a title page may open on (issue #24, goal 6): those the service named in a title's
// `url`, https only, no credentials, a bounded few.
import { describe, expect, it } from 'vitest';
import { TitlePages } from '../../../../electron/main/desk/title-pages.ts';

describe('title pages', () => {
  it('opens pages on hosts the service named for a title, and nothing else', () => {
    const pages = new TitlePages();
    expect(pages.opens('https://www.partner.example/title/1')).toBe(false);
    pages.note(['https://www.partner.example/title/1', undefined, 'http://plain.example/t/2', 'https://u:p@creds.example/t', 'javascript:alert(1)', 'not a url']);
    expect(pages.opens('https://www.partner.example/title/99')).toBe(true);
    for (const url of ['http://www.partner.example/title/1', 'https://plain.example/t/2', 'https://creds.example/t', 'https://evil.example/', 'https://u:p@www.partner.example/']) {
      expect(pages.opens(url), url).toBe(false);
    }
  });

  it('keeps at most 20 hosts: a flood of them is not title pages', () => {
    const pages = new TitlePages();
    pages.note(Array.from({ length: 30 }, (_, i) => `https://host${i}.example/t`));
    expect(pages.opens('https://host19.example/t')).toBe(true);
    expect(pages.opens('https://host20.example/t')).toBe(false);
  });
});
