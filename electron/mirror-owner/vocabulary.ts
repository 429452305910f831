// The mirror's vocabulary: strings that repeat across titles (a publisher, a genre, a language,
// the part of a cover's web address up to its last '/'), each kept once in the file and named
// by its number in every record that has it (title-record.ts). Held in memory by the owner,
// loaded when the file opens. A word added in a transaction that is rolled back is forgotten
// with it, so memory and file never disagree.
import type { Prepares, Statement } from './mirror-file.ts';
import type { Vocabulary } from './title-record.ts';

/** Words kept at most: past it a string is written out in each record (a vocabulary is not meant to grow with the catalog). */
const WORDS_KEPT = 200_000;

export class StoredVocabulary implements Vocabulary {
  private readonly ids = new Map<string, number>();
  /** By number; 0 is no word. */
  private readonly texts: string[] = [''];
  private readonly insert: Statement;
  /** Words added since the last commit or rollback. */
  private added = 0;

  constructor(db: Prepares) {
    this.insert = db.prepare('INSERT INTO vocabulary (id, text) VALUES (?, ?)');
    for (const { id, text } of db.prepare('SELECT id, text FROM vocabulary ORDER BY id').all() as { id: number; text: string }[]) {
      this.texts[id] = text;
      this.ids.set(text, id);
    }
  }

  idOf(text: string): number {
    const known = this.ids.get(text);
    if (known !== undefined) return known;
    if (this.texts.length > WORDS_KEPT) return 0;
    const id = this.texts.length;
    this.insert.run(id, text);
    this.texts.push(text);
    this.ids.set(text, id);
    this.added++;
    return id;
  }

  textOf(id: number): string {
    const text = this.texts[id];
    if (text === undefined) throw new Error(`A stored record names word ${id}, which the mirror's vocabulary does not have.`);
    return text;
  }

  committed(): void {
    this.added = 0;
  }

  rolledBack(): void {
    for (; this.added > 0; this.added--) this.ids.delete(this.texts.pop() as string);
  }
}
