// The words a title can be found by, in one normal form shared by what the mirror stores and
// what staff type, so the full-text index and the in-memory walk (collection-search.ts) agree on
// every match. Lower case without accents (é → e, ß → ss, œ → oe); a compound joined by
// apostrophes, hyphens or dots is stored as its parts and as one word ("L'Été" → l, ete, lete;
// "978-1-23-456789-0" → its groups and 9781234567890) and typed as one word, so "lete", "ete",
// "l'été", "o'brien", "obrien" and an ISBN with or without hyphens all find what staff expect.
// A search word matches a title when it begins one of the title's words. Nothing staff type
// reaches SQLite as syntax: only letters and digits survive, each word goes quoted.

const FOLDS: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŀ: 'l', ŧ: 't' };
const FOLDABLE = /[œæßøłđðþıħŀŧ]/g;
const MARKS = /\p{M}+/gu;
const ASCII = /^[\x00-\x7f]*$/;
/** Letters and digits, joined into one compound by apostrophes, hyphens and dots between them. */
const COMPOUND = /[\p{L}\p{N}]+(?:['’ʼ‘`\-‐‑.][\p{L}\p{N}]+)*/gu;
const ASCII_COMPOUND = /[a-z0-9]+(?:['`\-.][a-z0-9]+)*/g;
const JOINER = /['’ʼ‘`\-‐‑.]/;

/** The most words a search uses; more is not a search staff type. */
export const MAX_QUERY_WORDS = 12;
/** Longer words are cut: no title word is longer, and the full-text query stays small. */
const MAX_WORD_LENGTH = 64;

function fold(text: string): string {
  const lower = text.toLowerCase();
  if (ASCII.test(lower)) return lower;
  return lower.normalize('NFKD').replace(MARKS, '').replace(FOLDABLE, (c) => FOLDS[c] ?? c);
}

function compounds(text: string): string[] {
  const folded = fold(text);
  return folded.match(ASCII.test(folded) ? ASCII_COMPOUND : COMPOUND) ?? [];
}

/** What the mirror stores for a title: its words, each once, separated by single spaces. */
export function searchWords(fields: readonly (string | null | undefined)[]): string {
  const words = new Set<string>();
  for (const field of fields) {
    if (!field) continue;
    for (const compound of compounds(field)) {
      if (!JOINER.test(compound)) {
        words.add(compound);
        continue;
      }
      const parts = compound.split(JOINER);
      for (const part of parts) words.add(part);
      words.add(parts.join(''));
    }
  }
  return [...words].join(' ');
}

/** What staff typed, as the words a title must have (as the beginning of one of its words). */
export function queryWords(text: string): string[] {
  const words: string[] = [];
  for (const compound of compounds(text)) {
    const word = compound.split(JOINER).join('').slice(0, MAX_WORD_LENGTH);
    if (!words.includes(word)) words.push(word);
    if (words.length === MAX_QUERY_WORDS) break;
  }
  return words;
}

/** The FTS5 query for these words: every word a quoted prefix, all of them required. */
export function ftsMatch(words: readonly string[]): string {
  return words.map((word) => `"${word.replace(/"/g, '""')}"*`).join(' AND ');
}
