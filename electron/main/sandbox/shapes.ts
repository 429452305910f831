// Response shape variants the spec allows. Switchable at run time so the client's tolerant
// parsing can be tested against each of them.

import { findLibrary, LIBRARIES } from './libraries.ts';
import type { SchemaGeneration } from './libraries.ts';

export interface Shapes {
  /** 'object': one hold is sent as a bare object, none as {}, several as an array. */
  holds: 'array' | 'object';
  /** Where entitlements sit: `entitlements: [...]` or `data: { entitlements: [...] }`. */
  entitlements: 'entitlements' | 'data';
  /** Where global records sit: `data: { contents: [...] }` or top-level `contents: [...]`. */
  globalContents: 'data' | 'contents';
  libraryContentSchema: Record<number, SchemaGeneration>;
  /** What entitlement pages carry in `metadata.warnings` (the spec shows the field, not its content). */
  entitlementWarnings: string[];
  /** The token answer's `token_type` (lower-case `bearer` in the spec; another kind of token is what a client must refuse). */
  tokenType: string;
  /** Whether each entitlement carries its own `purchaseModel` (the spec shows none; a service that ignores its filters would have to). */
  entitlementModel: boolean;
}

export type ShapeChanges = Partial<Omit<Shapes, 'libraryContentSchema'>> & {
  libraryContentSchema?: Record<number, SchemaGeneration>;
};

export function defaultShapes(): Shapes {
  return {
    holds: 'array',
    entitlements: 'entitlements',
    globalContents: 'data',
    libraryContentSchema: Object.fromEntries(LIBRARIES.map((library) => [library.libraryId, library.schema])),
    entitlementWarnings: [],
    tokenType: 'bearer',
    entitlementModel: false,
  };
}

/** Validates and merges; throws with a readable message on a bad value. */
export function applyShapes(current: Shapes, input: unknown): Shapes {
  if (typeof input !== 'object' || input === null) throw new Error('Shapes must be a JSON object');
  const changes = input as Record<string, unknown>;
  const next: Shapes = { ...current, libraryContentSchema: { ...current.libraryContentSchema }, entitlementWarnings: [...current.entitlementWarnings] };
  const warnings = changes.entitlementWarnings;
  if (warnings !== undefined) {
    if (!Array.isArray(warnings) || warnings.length > 10 || !warnings.every((w) => typeof w === 'string' && w.length <= 500)) {
      throw new Error('entitlementWarnings must be a list of at most 10 texts of at most 500 characters');
    }
    next.entitlementWarnings = [...warnings] as string[];
  }
  if (changes.entitlementModel !== undefined) {
    if (typeof changes.entitlementModel !== 'boolean') throw new Error('entitlementModel must be true or false');
    next.entitlementModel = changes.entitlementModel;
  }
  const tokenType = changes.tokenType;
  if (tokenType !== undefined) {
    if (typeof tokenType !== 'string' || tokenType.length > 40) throw new Error('tokenType must be a text of at most 40 characters');
    next.tokenType = tokenType;
  }
  const pick = <K extends 'holds' | 'entitlements' | 'globalContents'>(key: K, allowed: readonly Shapes[K][]): void => {
    const value = changes[key];
    if (value === undefined) return;
    if (!(allowed as readonly unknown[]).includes(value)) throw new Error(`${key} must be one of ${allowed.join(', ')}`);
    next[key] = value as Shapes[K];
  };
  pick('holds', ['array', 'object']);
  pick('entitlements', ['entitlements', 'data']);
  pick('globalContents', ['data', 'contents']);
  const schemas = changes.libraryContentSchema;
  if (schemas !== undefined) {
    if (typeof schemas !== 'object' || schemas === null) throw new Error('libraryContentSchema must map library ids to earlier|later');
    for (const [key, value] of Object.entries(schemas)) {
      if (findLibrary(Number(key)) === undefined) throw new Error(`libraryContentSchema: no library ${key}`);
      if (value !== 'earlier' && value !== 'later') throw new Error('libraryContentSchema values must be earlier or later');
      next.libraryContentSchema[Number(key)] = value;
    }
  }
  return next;
}
