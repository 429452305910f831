// Runs one contract call: the method must exist, its argument must parse, and whatever
// happens the caller gets a Result, never a thrown Error (Electron would keep only its
// message). Shared by the Electron registry and the Chromium test host, so both answer alike.

import type { z } from 'zod';
import { METHODS, type DeskHandlers, type MethodName, type Result } from '../shared/contract.ts';
import { isPartnerError, type ErrorInfo } from '../partner/errors.ts';

export interface DispatchLog {
  error(event: string, fields?: Record<string, unknown>): void;
}

const FIELD_LABELS: Record<string, string> = {
  libraryId: 'Library', card: 'Library card', contentId: 'Title id', contentIds: 'Title ids', title: 'Title',
  username: 'Username', password: 'Password', baseUrl: 'Service address', profileId: 'Connection profile',
  staffName: 'Staff name', idleLockMinutes: 'Idle lock minutes', language: 'Language', q: 'Search text',
  offset: 'Result offset', limit: 'Results per page', formats: 'Formats', purchaseModel: 'Lending model',
  name: 'Name', libraries: 'Library ids', wsApi: 'ws-api value', country: 'Country', reason: 'Reason', profile: 'Profile',
};

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(METHODS, name);
}

/** "Library card: Enter a library card number." — the first problem, named as staff know it. */
export function describeIssues(error: z.ZodError): string {
  const issue = tightestBound(error.issues);
  if (!issue) return 'The request was not valid.';
  if (issue.code === 'unrecognized_keys') return unexpectedFields(issue.keys);
  const field = [...issue.path].reverse().find((p) => typeof p === 'string');
  const label = typeof field === 'string' ? (FIELD_LABELS[field] ?? field) : undefined;
  const sentence = plainIssue(issue);
  if (label) return `${label}: ${sentence}`;
  if (issue.path.length === 0 && issue.code === 'invalid_type') {
    return issue.expected === 'undefined' ? 'This request takes no details.' : 'The details of this request are missing or of the wrong kind.';
  }
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/**
 * The first issue, except that of several bounds one number broke, the field's own is named:
 * `.int()` adds the safe-integer range, so 2^64 for "Results per page" would otherwise read
 * "must be at most 9007199254740991" and -2^64 for a library "must be at least -9007199254740991".
 */
function tightestBound(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue | undefined {
  const first = issues[0];
  if (!first || (first.code !== 'too_big' && first.code !== 'too_small') || first.origin === 'string' || first.origin === 'array') return first;
  const samePath = (other: z.core.$ZodIssue): boolean => other.path.length === first.path.length && other.path.every((p, i) => p === first.path[i]);
  let tightest = first;
  for (const other of issues) {
    if (other.code !== first.code || !samePath(other)) continue;
    if (other.code === 'too_big' && tightest.code === 'too_big' && Number(other.maximum) < Number(tightest.maximum)) tightest = other;
    if (other.code === 'too_small' && tightest.code === 'too_small' && Number(other.minimum) > Number(tightest.minimum)) tightest = other;
  }
  return tightest;
}

/** Names at most three unknown fields, each cut short: an argument can carry thousands, or huge names. */
function unexpectedFields(keys: string[]): string {
  const shown = keys.slice(0, 3).map((key) => (key.length > 30 ? `${key.slice(0, 30)}…` : key));
  const more = keys.length > 3 ? ` and ${keys.length - 3} more` : '';
  return `Unexpected field${keys.length === 1 ? '' : 's'}: ${shown.join(', ')}${more}.`;
}

function plainIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required.';
      if (issue.expected === 'int') return 'must be a whole number.';
      if (issue.expected === 'number') return 'must be a number.';
      if (issue.expected === 'string') return 'must be text.';
      if (issue.expected === 'boolean') return 'must be yes or no.';
      if (issue.expected === 'array') return 'must be a list.';
      return 'has the wrong kind of value.';
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty.' : `must be at least ${issue.minimum} characters.`;
      if (issue.origin === 'array') return `needs at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}.`;
      return `must be ${issue.inclusive ? 'at least' : 'more than'} ${issue.minimum}.`;
    case 'too_big':
      if (issue.origin === 'string') return `is too long (at most ${issue.maximum} characters).`;
      if (issue.origin === 'array') return `has too many items (at most ${issue.maximum}).`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}.`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_format':
      return 'is not in the expected form.';
    default:
      return issue.message.endsWith('.') ? issue.message : `${issue.message}.`;
  }
}

export async function dispatch(handlers: DeskHandlers, name: unknown, rawArgs: unknown, log?: DispatchLog): Promise<Result<unknown>> {
  if (!isMethodName(name)) return failure({ code: 'invalid-input', message: 'Unknown request.' });
  // reportInput: tells a missing field ("is required") from one of the wrong kind.
  const parsed = METHODS[name].args.safeParse(rawArgs, { reportInput: true });
  if (!parsed.success) return failure({ code: 'invalid-input', message: describeIssues(parsed.error) });
  try {
    const handler = handlers[name] as (args: unknown) => Promise<unknown>;
    return { ok: true, value: await handler.call(handlers, parsed.data) };
  } catch (error) {
    if (isPartnerError(error)) return failure(error.toInfo());
    log?.error('contract.unexpected', { method: name, error });
    return failure({ code: 'server', message: 'Lending Desk hit an unexpected problem. It has been logged; try again.' });
  }
}

function failure(error: ErrorInfo): Result<never> {
  return { ok: false, error };
}
