import { describe, expect, it } from 'vitest';
import { en } from '../../../src/i18n/en.ts';
import { sourceOf, type LocaleMessage } from '../../../src/i18n/elision.ts';
import { frCA } from '../../../src/i18n/fr-CA.ts';

type Tree = { [key: string]: LocaleMessage | Tree };
/** Every message by its key, as the text it was written as (a message function's source). */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string' || typeof value === 'function') out.set(prefix + key, sourceOf(value as LocaleMessage));
    else for (const [k, v] of leaves(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

describe('locale files', () => {
  const english = leaves(en as unknown as Tree);
  const french = leaves(frCA as unknown as Tree);

  it('have the same keys, none empty', () => {
    expect([...french.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, value] of french) expect(value.trim(), key).not.toBe('');
  });

  it('keep the same placeholders in French (whatever the plural forms each language needs)', () => {
    const names = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
    for (const [key, value] of english) expect(names(french.get(key)!), key).toEqual(names(value));
  });

  it('translate the new desk strings (not left in English)', () => {
    const same = [...english].filter(([key, value]) => /^(catalog|actions|errors|confirm|log|help)\./.test(key) && french.get(key) === value);
    const allowed = new Set(['catalog.format', 'catalog.models.INSTANT', 'catalog.models.FLEX', 'catalog.detail.format', 'catalog.detail.isbn', 'catalog.detail.genres']);
    expect(same.map(([key]) => key).filter((key) => !allowed.has(key))).toEqual([]);
  });
});

describe("main's reasons", () => {
  it('are all in the locale files, and English is the shared table itself', async () => {
    const { REASONS } = await import('../../../electron/shared/reasons.ts');
    expect(en.reasons).toBe(REASONS);
    expect(Object.keys(frCA.reasons).sort()).toEqual(Object.keys(REASONS).sort());
  });

  it('are translated, not left in English, and so are the field names a refusal gives', async () => {
    const { REASONS } = await import('../../../electron/shared/reasons.ts');
    const { FIELD_NAMES } = await import('../../../electron/shared/field-names.ts');
    expect(en.fields).toBe(FIELD_NAMES);
    const untranslated = Object.entries(REASONS).filter(([key, text]) => (frCA.reasons as Record<string, string>)[key] === text).map(([key]) => key);
    expect(untranslated).toEqual([]);
    const sameNames = Object.entries(FIELD_NAMES).filter(([key, text]) => (frCA.fields as Record<string, string>)[key] === text).map(([key]) => key);
    expect(sameNames.filter((key) => !['formats'].includes(key))).toEqual([]);
  });

  it('fill their parameters into the English sentence for the log', async () => {
    const { reasonText } = await import('../../../electron/shared/reasons.ts');
    expect(reasonText('profile.not-found', { id: 'main' })).toBe('There is no connection profile "main".');
    expect(reasonText('profile.not-found')).toBe('There is no connection profile "{id}".');
  });
});
