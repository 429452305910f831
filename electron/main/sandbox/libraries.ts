// The fixed libraries and what each is entitled to. A generated entitlement is a pure
// function of (seed, library, id); tests' changes are kept as overrides on top.

import { unit } from './random.ts';
import type { Country, TitleCore } from './catalog.ts';
import type { CatalogStore } from './catalog-store.ts';

export type PurchaseModel = 'INSTANT' | 'FLEX';
export type SchemaGeneration = 'earlier' | 'later';

export interface LibraryDefinition {
  libraryId: number;
  country: Country;
  name: string;
  /** Which library content schema generation the library answers in by default. */
  schema: SchemaGeneration;
}

export const LIBRARIES: readonly LibraryDefinition[] = [
  { libraryId: 101, country: 'US', name: 'Riverside Public Library', schema: 'later' },
  { libraryId: 202, country: 'CA', name: 'Maple Valley Library', schema: 'later' },
  { libraryId: 303, country: 'AU', name: 'Southern Cross Libraries', schema: 'earlier' },
];

export function findLibrary(libraryId: number): LibraryDefinition | undefined {
  return LIBRARIES.find((library) => library.libraryId === libraryId);
}

export interface Entitlement {
  purchaseModel: PurchaseModel;
  active: boolean;
  /** Flex only: one copy, one user. */
  totalCopies: number;
}

const SALT_ENTITLED = 11;
const SALT_MODEL = 12;
const SALT_ACTIVE = 13;
const SALT_COPIES = 14;

/** The model a library would buy a title under; only models the title is sold in. */
export function modelFor(seed: number, libraryId: number, core: TitleCore): PurchaseModel {
  if (core.ppu && core.perpetual) return unit(seed, libraryId, core.id, SALT_MODEL) < 0.5 ? 'INSTANT' : 'FLEX';
  return core.ppu ? 'INSTANT' : 'FLEX';
}

export function copiesFor(seed: number, libraryId: number, id: number): number {
  return 1 + Math.floor(unit(seed, libraryId, id, SALT_COPIES) * 3);
}

function generatedEntitlement(seed: number, library: LibraryDefinition, core: TitleCore): Entitlement | undefined {
  if (!core.countryCodes.includes(library.country)) return undefined;
  if (unit(seed, library.libraryId, core.id, SALT_ENTITLED) >= 0.6) return undefined;
  const purchaseModel = modelFor(seed, library.libraryId, core);
  return {
    purchaseModel,
    active: unit(seed, library.libraryId, core.id, SALT_ACTIVE) < 0.95,
    totalCopies: purchaseModel === 'FLEX' ? copiesFor(seed, library.libraryId, core.id) : 0,
  };
}

export class EntitlementStore {
  private readonly catalog: CatalogStore;
  /** null means "not entitled", whatever the generator says. */
  private readonly overrides = new Map<number, Map<number, Entitlement | null>>();

  constructor(catalog: CatalogStore) {
    this.catalog = catalog;
  }

  get(libraryId: number, id: number): Entitlement | undefined {
    if (!this.catalog.has(id)) return undefined;
    const library = findLibrary(libraryId);
    if (library === undefined) return undefined;
    const override = this.overrides.get(libraryId)?.get(id);
    if (override !== undefined) return override ?? undefined;
    return generatedEntitlement(this.catalog.seed, library, this.catalog.core(id));
  }

  set(libraryId: number, id: number, entitlement: Entitlement | null): void {
    let overrides = this.overrides.get(libraryId);
    if (overrides === undefined) {
      overrides = new Map();
      this.overrides.set(libraryId, overrides);
    }
    overrides.set(id, entitlement);
  }
}
