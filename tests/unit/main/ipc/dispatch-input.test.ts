// Defects the bad-input run found at the contract boundary, each pinned: the refusal must be
// invalid-input with a sentence staff can act on, and nothing may be called or sent.
import { describe, expect, it, vi } from 'vitest';
import type { DeskHandlers } from '../../../../electron/shared/contract.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { checkCard } from '../../../../electron/node/partner/paths.ts';

function handlers(): DeskHandlers {
  return new Proxy({}, { get: () => vi.fn(async () => 'called') }) as DeskHandlers;
}

async function refusal(method: string, args: unknown): Promise<string> {
  const result = await dispatch(handlers(), method, args);
  if (result.ok) throw new Error(`${method} accepted ${JSON.stringify(args)?.slice(0, 60)}`);
  expect(result.error.code).toBe('invalid-input');
  return result.error.message;
}

describe('cards the bad-input run found crashing the desk', () => {
  it('a lone surrogate is refused as not valid text (encodeURIComponent threw URIError: an unexpected problem)', async () => {
    expect(await refusal('lookupPatron', { libraryId: 101, card: '21101\ud80000001' })).toBe('Library card: The library card contains a character that is not valid text.');
    expect(() => checkCard('\udfff')).toThrow(/not valid text/);
  });

  it('direction and zero-width marks are refused: a card must read as what it is', async () => {
    for (const card of ['\u202e1000012', '2110\u200b100001', '2110100001\u2066']) {
      expect(await refusal('borrow', { libraryId: 101, card, contentId: 5 })).toMatch(/invisible formatting character\.$/);
    }
    expect(checkCard('\ufeff2110100001 ')).toBe('2110100001'); // a byte-order mark from a paste is trimmed like a space
  });
});

describe('messages the bad-input run found unclear', () => {
  it('a field of the wrong kind is named as such, not as missing', async () => {
    expect(await refusal('lookupPatron', { libraryId: 'abc', card: '1' })).toBe('Library: must be a number.');
    expect(await refusal('forgetCredentials', { profileId: 5 })).toBe('Connection profile: must be text.');
    expect(await refusal('lookupPatron', { card: '1' })).toBe('Library: is required.');
    expect(await refusal('lookupPatron', 'abc')).toBe('The details of this request are missing or of the wrong kind.');
  });

  it('thousands of unknown fields, or huge field names, give one short sentence', async () => {
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [String(i), 1]));
    const message = await refusal('listActions', { offset: 0, ...many });
    expect(message).toBe('Unexpected fields: 0, 1, 2 and 4997 more.');
    expect(await refusal('listActions', { ['k'.repeat(100_000)]: 1 })).toBe(`Unexpected field: ${'k'.repeat(30)}….`);
  });
});

describe('names and titles that would carry control or direction characters into the logs', () => {
  it('refuses them in what staff type: staff name, profile name, username', async () => {
    expect(await refusal('startShift', { staffName: 'Ann\u202eeroc' })).toBe('Staff name: must not contain control or invisible characters.');
    expect(await refusal('startShift', { staffName: 'Ann\u0007' })).toMatch(/control or invisible/);
    expect(await refusal('testPartnerConnection', { baseUrl: 'https://lending.example.org', username: 'desk\n2', password: 'p' })).toMatch(/^Username: /);
  });

  it('folds line breaks and controls out of a title, keeping the rest (direction marks can belong to a title)', async () => {
    const borrow = vi.fn(async () => 'called');
    const result = await dispatch({ borrow } as unknown as DeskHandlers, 'borrow', { libraryId: 101, card: '2110100001', contentId: 5, title: 'Line one\r\nLine\u0000two \u200fשלום' });
    expect(result.ok).toBe(true);
    expect(borrow).toHaveBeenCalledWith(expect.objectContaining({ title: 'Line one Line two \u200fשלום' }));
  });
});

