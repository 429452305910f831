// Library ids as staff type them: "101, 102" or "101 102". Each must be a positive whole
// number; duplicates collapse. The contract takes at most 20.
export const MAX_LIBRARIES = 20;

export type LibraryIdsParse = { ok: true; ids: number[] } | { ok: false; problem: 'empty' | 'invalid' | 'too-many' };

export function parseLibraryIds(text: string): LibraryIdsParse {
  const parts = text.split(/[\s,;]+/).filter((part) => part !== '');
  if (parts.length === 0) return { ok: false, problem: 'empty' };
  const ids: number[] = [];
  for (const part of parts) {
    if (!/^\d+$/.test(part)) return { ok: false, problem: 'invalid' };
    const id = Number(part);
    if (!Number.isSafeInteger(id) || id <= 0) return { ok: false, problem: 'invalid' };
    if (!ids.includes(id)) ids.push(id);
  }
  if (ids.length > MAX_LIBRARIES) return { ok: false, problem: 'too-many' };
  return { ok: true, ids };
}

/** http(s) only: the service is reached over the web. */
export function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}
