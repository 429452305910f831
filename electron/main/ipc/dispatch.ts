// Runs one contract call: the method must exist, its argument must parse, and whatever
// happens the caller gets a Result, never a thrown Error (Electron would keep only its
// message). Shared by the Electron registry and the Chromium test host, so both answer alike.

import type { z } from 'zod';
import { CALL_ID, METHODS, type CallOptions, type DeskHandlers, type MethodName, type Result } from '../../shared/contract.ts';
import { FIELD_NAMES, isFieldName } from '../../shared/field-names.ts';
import { isReason, reasonText, REASONS, type Reason } from '../../shared/reasons.ts';
import { isDeskError } from '../../shared/desk-error.ts';
import type { ErrorInfo, ErrorParams } from '../../shared/errors.ts';

export interface DispatchLog {
  error(event: string, fields?: Record<string, unknown>): void;
}

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(METHODS, name);
}

/** A refusal of the argument: the reason and its parameters for staff, the English sentence for the log. */
export interface Refusal { reason: Reason; params: ErrorParams; message: string }

/**
 * The reason for a refusal with its parameters. `field` travels as its key (the renderer names
 * it in the staff's language); the log's sentence names it in English. A reason whose sentence
 * does not name the field (a card rule says "The library card …") gets the name in front, for the log.
 */
function refusal(reason: Reason, params: ErrorParams = {}, field?: string): Refusal {
  if (field === undefined) return { reason, params, message: reasonText(reason, params) };
  const name = isFieldName(field) ? FIELD_NAMES[field] : field;
  const sentence = reasonText(reason, { ...params, field: name });
  return { reason, params: { ...params, field }, message: REASONS[reason].includes('{field}') ? sentence : `${name}: ${sentence}` };
}

/** "Library card: Enter a library card number." — the first problem, named as staff know it. */
export function describeIssues(error: z.ZodError): Refusal {
  const issue = tightestBound(error.issues);
  if (!issue) return refusal('input.not-valid');
  if (issue.code === 'unrecognized_keys') return unexpectedFields(issue.keys);
  const field = [...issue.path].reverse().find((p) => typeof p === 'string');
  if (typeof field === 'string') {
    const [reason, params] = issueReason(issue);
    return refusal(reason, params, field);
  }
  if (issue.path.length === 0 && issue.code === 'invalid_type') {
    return refusal(issue.expected === 'undefined' ? 'input.takes-no-details' : 'input.details-missing');
  }
  const [reason, params] = issueReason(issue);
  return REASONS[reason].includes('{field}') ? refusal('input.not-valid') : refusal(reason, params);
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
function unexpectedFields(keys: string[]): Refusal {
  const fields = keys.slice(0, 3).map((key) => (key.length > 30 ? `${key.slice(0, 30)}…` : key)).join(', ');
  if (keys.length > 3) return refusal('input.unexpected-fields-more', { fields, more: keys.length - 3 });
  return refusal(keys.length === 1 ? 'input.unexpected-field' : 'input.unexpected-fields', { fields });
}

function issueReason(issue: z.core.$ZodIssue): [Reason, ErrorParams?] {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return ['input.required'];
      if (issue.expected === 'int') return ['input.whole-number'];
      if (issue.expected === 'number') return ['input.number'];
      if (issue.expected === 'string') return ['input.text'];
      if (issue.expected === 'boolean') return ['input.yes-no'];
      if (issue.expected === 'array') return ['input.list'];
      return ['input.wrong-kind'];
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? ['input.not-empty'] : ['input.min-characters', { min }];
      if (issue.origin === 'array') return [min === 1 ? 'input.min-item' : 'input.min-items', { min }];
      return [issue.inclusive ? 'input.at-least' : 'input.more-than', { min }];
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return ['input.too-long', { max }];
      if (issue.origin === 'array') return ['input.too-many-items', { max }];
      return [issue.inclusive ? 'input.at-most' : 'input.less-than', { max }];
    }
    case 'invalid_value':
      return ['input.one-of', { values: issue.values.map(String).join(', ') }];
    case 'invalid_format':
      return ['input.bad-form'];
    default:
      // The contract's own rules carry a reason key as their message (shared/contract.ts).
      return [isReason(issue.message) ? issue.message : 'input.not-valid'];
  }
}

/** The call's options beside its argument (contract.ts CallOptions): nothing, or a call id the renderer may cancel it by. */
function callOptions(raw: unknown): CallOptions | undefined | 'refused' {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) return 'refused';
  const keys = Object.keys(raw);
  const callId = (raw as { callId?: unknown }).callId;
  if (keys.some((key) => key !== 'callId') || (callId !== undefined && (typeof callId !== 'string' || !CALL_ID.test(callId)))) return 'refused';
  return callId === undefined ? undefined : { callId };
}

export async function dispatch(handlers: DeskHandlers, name: unknown, rawArgs: unknown, log?: DispatchLog, rawCall?: unknown): Promise<Result<unknown>> {
  if (!isMethodName(name)) return failure({ code: 'invalid-input', ...refusal('input.unknown-request') });
  // reportInput: tells a missing field ("is required") from one of the wrong kind.
  const parsed = METHODS[name].args.safeParse(rawArgs, { reportInput: true });
  if (!parsed.success) return failure({ code: 'invalid-input', ...describeIssues(parsed.error) });
  const call = callOptions(rawCall);
  if (call === 'refused') return failure({ code: 'invalid-input', ...refusal('input.not-valid') });
  try {
    const handler = handlers[name] as (args: unknown, call?: CallOptions) => Promise<unknown>;
    return { ok: true, value: await (call === undefined ? handler.call(handlers, parsed.data) : handler.call(handlers, parsed.data, call)) };
  } catch (error) {
    if (isDeskError(error)) return failure(error.toInfo());
    log?.error('contract.unexpected', { method: name, error });
    return failure({ code: 'server', ...refusal('desk.unexpected') });
  }
}

function failure(error: ErrorInfo): Result<never> {
  return { ok: false, error };
}
