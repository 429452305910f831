// A figure is a number measured by a run, printed beside its goal and what it proves. The
// runner prints them; the short test inside `npm test` asserts that each one met its goal.

export interface Figure {
  name: string;
  value: number | string;
  goal: string;
  met: boolean;
  /** What the figure shows a desk librarian or library IT, in a sentence. */
  proves: string;
}

export interface Section {
  title: string;
  figures: Figure[];
  /** Lines that explain the figures: what the user was told, what the run did. */
  notes: string[];
}

export function figure(name: string, value: number | string, goal: string, met: boolean, proves: string): Figure {
  return { name, value, goal, met, proves };
}

/** The usual goal: none at all. */
export function zero(name: string, value: number, proves: string): Figure {
  return figure(name, value, '0', value === 0, proves);
}

export function formatSection(section: Section): string {
  const width = Math.max(...section.figures.map((f) => f.name.length));
  const lines = [`== ${section.title}`];
  for (const f of section.figures) {
    const value = typeof f.value === 'number' ? f.value.toLocaleString('en-US') : f.value;
    lines.push(`  ${f.met ? 'ok  ' : 'MISS'} ${f.name.padEnd(width)}  ${value}  (goal ${f.goal})  — ${f.proves}`);
  }
  for (const note of section.notes) lines.push(`       ${note}`);
  return lines.join('\n');
}

/** Sizes of a run: the full one for `npm run reliability`, a short one inside `npm test`. */
export interface Scale {
  name: 'full' | 'short';
  churnActions: number;
  lostEach: number;
  dayMinutes: number;
  badInputsPerMethod: number;
  crashRuns: number;
}

export const FULL: Scale = { name: 'full', churnActions: 1000, lostEach: 100, dayMinutes: 20, badInputsPerMethod: 10_000, crashRuns: 20 };
export const SHORT: Scale = { name: 'short', churnActions: 150, lostEach: 10, dayMinutes: 3, badInputsPerMethod: 150, crashRuns: 3 };
