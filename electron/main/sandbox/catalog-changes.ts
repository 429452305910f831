// Test-driven catalog changes: additions, revisions, removals and entitlement moves, each
// stamped with the current time in every feed it shows up in, so deltas find exactly them.
// Everything is validated before anything is applied: a bad request changes nothing.

import { copiesFor, findLibrary, LIBRARIES, modelFor } from './libraries.ts';
import type { PurchaseModel } from './libraries.ts';
import type { SandboxState } from './state.ts';

export interface LibraryIds {
  libraryId: number;
  contentIds: number[];
}

export interface CatalogChanges {
  add?: number;
  modify?: number[];
  remove?: number[];
  deactivate?: LibraryIds;
  reactivate?: LibraryIds;
  entitle?: LibraryIds & { purchaseModel: PurchaseModel };
  unentitle?: LibraryIds;
}

const MAX_ADD = 100_000;

function idList(name: string, value: unknown): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((id) => Number.isSafeInteger(id))) throw new Error(`${name} must be an array of content ids`);
  return value as number[];
}

function libraryIds(state: SandboxState, name: string, value: unknown, mustBeEntitled: boolean): LibraryIds | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) throw new Error(`${name} must be { libraryId, contentIds }`);
  const { libraryId, contentIds } = value as Record<string, unknown>;
  if (typeof libraryId !== 'number' || findLibrary(libraryId) === undefined) throw new Error(`${name}: no library ${String(libraryId)}`);
  const ids = idList(`${name}.contentIds`, contentIds);
  for (const id of ids) {
    if (!state.catalog.has(id)) throw new Error(`${name}: content ${id} is not in the catalog`);
    if (mustBeEntitled && state.entitlements.get(libraryId, id) === undefined) {
      throw new Error(`${name}: library ${libraryId} is not entitled to content ${id}`);
    }
  }
  return { libraryId, contentIds: ids };
}

export function applyCatalogChanges(state: SandboxState, input: unknown): { added: number[] } {
  if (typeof input !== 'object' || input === null) throw new Error('Catalog changes must be a JSON object');
  const changes = input as Record<string, unknown>;
  const add = changes.add ?? 0;
  if (!Number.isInteger(add) || (add as number) < 0 || (add as number) > MAX_ADD) throw new Error(`add must be an integer from 0 to ${MAX_ADD}`);
  const modify = idList('modify', changes.modify);
  const remove = idList('remove', changes.remove);
  for (const id of [...modify, ...remove]) if (!state.catalog.has(id)) throw new Error(`Content ${id} is not in the catalog`);
  const deactivate = libraryIds(state, 'deactivate', changes.deactivate, true);
  const reactivate = libraryIds(state, 'reactivate', changes.reactivate, true);
  const entitle = libraryIds(state, 'entitle', changes.entitle, false);
  const unentitle = libraryIds(state, 'unentitle', changes.unentitle, true);
  const entitleModel = (changes.entitle as { purchaseModel?: unknown } | undefined)?.purchaseModel;
  if (entitle !== undefined && entitleModel !== 'INSTANT' && entitleModel !== 'FLEX') throw new Error('entitle.purchaseModel must be INSTANT or FLEX');

  const { catalog, entitlements, changes: log, circulation } = state;
  const now = state.nowSeconds();
  const touchLibrary = (libraryId: number, id: number, entitlementChanged: boolean): void => {
    log.recordLibrary('libraryContent', libraryId, id, now);
    if (entitlementChanged) log.recordLibrary('entitlements', libraryId, id, now);
  };

  const added = catalog.addTitles(add as number);
  for (const id of added) {
    log.recordGlobal(id, now);
    const core = catalog.core(id);
    for (const library of LIBRARIES) {
      // New titles reach every library of their countries, so additions always show in library deltas.
      if (!core.countryCodes.includes(library.country)) continue;
      const purchaseModel = modelFor(catalog.seed, library.libraryId, core);
      const totalCopies = purchaseModel === 'FLEX' ? copiesFor(catalog.seed, library.libraryId, id) : 0;
      entitlements.set(library.libraryId, id, { purchaseModel, active: true, totalCopies });
      touchLibrary(library.libraryId, id, true);
    }
  }
  for (const id of modify) {
    catalog.revise(id);
    log.recordGlobal(id, now);
    for (const library of LIBRARIES) if (entitlements.get(library.libraryId, id)) touchLibrary(library.libraryId, id, false);
  }
  for (const id of remove) {
    const holders = LIBRARIES.filter((library) => entitlements.get(library.libraryId, id) !== undefined);
    catalog.remove(id);
    log.recordGlobal(id, now);
    for (const library of holders) {
      touchLibrary(library.libraryId, id, true);
      circulation.dropQueue(library.libraryId, id);
    }
  }
  const setActive = (target: LibraryIds | undefined, active: boolean): void => {
    for (const id of target?.contentIds ?? []) {
      const current = target === undefined ? undefined : entitlements.get(target.libraryId, id);
      if (target === undefined || current === undefined) continue;
      entitlements.set(target.libraryId, id, { ...current, active });
      touchLibrary(target.libraryId, id, true);
    }
  };
  setActive(deactivate, false);
  setActive(reactivate, true);
  for (const id of entitle?.contentIds ?? []) {
    if (entitle === undefined) break;
    const purchaseModel = entitleModel as PurchaseModel;
    const previous = entitlements.get(entitle.libraryId, id);
    const totalCopies = purchaseModel === 'FLEX' ? previous?.totalCopies || copiesFor(catalog.seed, entitle.libraryId, id) : 0;
    entitlements.set(entitle.libraryId, id, { purchaseModel, active: true, totalCopies });
    touchLibrary(entitle.libraryId, id, true);
  }
  for (const id of unentitle?.contentIds ?? []) {
    if (unentitle === undefined) break;
    entitlements.set(unentitle.libraryId, id, null);
    circulation.dropQueue(unentitle.libraryId, id);
    touchLibrary(unentitle.libraryId, id, true);
  }
  state.totals.clear();
  return { added };
}
