// Query and path parameter parsing. A bad value is a 400 whose message names the
// parameter, so whoever wrote the request can see what to fix.

import { HttpError } from './http-error.ts';
import type { PurchaseModel } from './libraries.ts';
import { BATCH_LIMIT } from '../../node/partner/limits.ts';

/** A strict service's batch limit: a larger `limit` is a 400, so a client that asks for more fails here first. */
export const MAX_LIMIT = BATCH_LIMIT;
const DIGITS = /^\d+$/;

export function parseLimit(query: URLSearchParams, fallback: number): number {
  const raw = query.get('limit');
  if (raw === null || raw === '') return fallback;
  const value = DIGITS.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw new HttpError(400, `limit must be an integer from 1 to ${MAX_LIMIT}`, `got "${raw}"`);
  }
  return value;
}

export function parseNonNegative(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const value = DIGITS.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) throw new HttpError(400, `${name} must be a non-negative integer`, `got "${raw}"`);
  return value;
}

/** Epoch seconds, or an ISO-8601 timestamp such as 2026-11-22T10:00:00Z. */
export function parseTimeValue(name: string, raw: string): number {
  if (DIGITS.test(raw)) {
    const value = Number(raw);
    // Thirteen digits can only be milliseconds; seconds would be in the year 5000+.
    return value >= 1e11 ? Math.floor(value / 1000) : value;
  }
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) {
    throw new HttpError(400, `${name} must be epoch seconds or an ISO-8601 UTC timestamp like 2026-11-22T10:00:00Z`, `got "${raw}"`);
  }
  return Math.floor(ms / 1000);
}

export function parseStartTime(query: URLSearchParams): number | undefined {
  const raw = query.get('startTime');
  return raw === null || raw === '' ? undefined : parseTimeValue('startTime', raw);
}

const MODEL_SPELLINGS: Record<string, PurchaseModel | 'ALL'> = {
  ALL: 'ALL', INSTANT: 'INSTANT', FLEX: 'FLEX', PPU: 'INSTANT', EST: 'FLEX',
};

/** ALL, INSTANT, FLEX, and the PPU/EST spellings real clients send; any case. */
export function parsePurchaseModel(query: URLSearchParams): PurchaseModel | 'ALL' {
  const raw = query.get('purchaseModel');
  if (raw === null || raw === '') return 'ALL';
  const value = MODEL_SPELLINGS[raw.toUpperCase()];
  if (value === undefined) throw new HttpError(400, 'purchaseModel must be one of ALL, INSTANT, FLEX (or PPU, EST)', `got "${raw}"`);
  return value;
}

export function parseId(name: string, raw: string | undefined): number {
  const value = raw !== undefined && DIGITS.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) throw new HttpError(400, `${name} must be an integer`, `got "${raw ?? ''}"`);
  return value;
}

export function commaList(raw: string): string[] {
  return raw.split(',').map((part) => part.trim()).filter((part) => part !== '');
}
