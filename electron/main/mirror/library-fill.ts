// Main's side of a desk in a library (issue #25): what the connection hands the mirror's owner for
// each fill from the library mirror — IT's settings, the password read from the keychain just
// then (IT may change it), the desk's libraries and countries — and nothing more: the owner reads
// PostgreSQL on its own thread (library-fill.ts). A fill asked while one is under way joins it.
import type { Country } from '../../shared/model.ts';
import type { LibraryFill, LibraryFillResult, LibraryMirrorTarget } from '../../node/mirror-interface.ts';

export interface LibraryFillOptions {
  target: LibraryMirrorTarget;
  /** The read-only role's password from the keychain; undefined when none is kept there. */
  password: () => Promise<string | undefined>;
  libraries: number[];
  countries: Country[];
  /** Changes per batch (tests ask for small ones). */
  batchSize?: number;
}

/** Where the library mirror is, as the Sync view names it (never the role's password). */
export const serverName = (target: LibraryMirrorTarget): string => `${target.host}:${target.port}/${target.database}`;

export class LibraryFillClient {
  private readonly options: LibraryFillOptions;
  private readonly owner: LibraryFill;
  private readonly now: () => number;
  private running: Promise<LibraryFillResult> | undefined;

  constructor(options: LibraryFillOptions, owner: LibraryFill, now: () => number) {
    this.options = options;
    this.owner = owner;
    this.now = now;
  }

  get server(): string {
    return serverName(this.options.target);
  }

  fill(): Promise<LibraryFillResult> {
    this.running ??= this.fillNow().finally(() => { this.running = undefined; });
    return this.running;
  }

  private async fillNow(): Promise<LibraryFillResult> {
    const { target, libraries, countries, batchSize } = this.options;
    // No password kept: the owner records why on the source, as for any refusal (the Sync view says it).
    const password = await this.options.password();
    return this.owner.fillFromLibrary({
      target, ...(password === undefined ? {} : { password }), libraries, countries, startedAt: this.now(), ...(batchSize === undefined ? {} : { batchSize }),
    });
  }
}
