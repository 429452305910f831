// A desk's work as the reliability runs drive it: lookups, searches, availability, borrows and
// returns, holds placed and removed, each through the contract, each judged against what the
// sandbox really holds afterwards. "Silent" is the failure that matters most: the desk said it
// worked and it did not, or said it failed when it had in fact happened.
import type { ErrorInfo } from '../../electron/shared/errors.ts';
import { unclearBecause } from './clear-message.ts';
import { addPatrons, expectOk, type Rig } from './rig.ts';

export type Verdict = 'completed' | 'clear-failure' | 'rules' | 'silent';

export interface ActionResult {
  kind: string;
  verdict: Verdict;
  error?: ErrorInfo;
  /** Why a result counts as silent. */
  why?: string;
}

/** Answers the lending rules give, which staff read out and act on; not failures of the desk. */
const RULE_CODES = new Set(['limit-reached', 'unavailable', 'available-to-borrow', 'already-borrowed', 'already-on-hold', 'not-found', 'invalid-patron']);

/** The patron's account could not be read: the reason says so, and staff look before retrying. */
const saysUnknown = (error: ErrorInfo | undefined): boolean => error?.reason === 'action.outcome-unknown';

export interface Desk {
  rig: Rig;
  libraryId: number;
  cards: string[];
  instant: number[];
  /** Flex titles with every copy out, so a hold can be placed. */
  holdable: number[];
  words: string[];
  /** What each card should hold, kept in step with the sandbox's truth after every action. */
  loans: Map<string, Set<number>>;
  holds: Map<string, Set<number>>;
}

/** Patrons, titles and the Flex titles made holdable, set up before any fault is switched on. */
export async function prepareDesk(rig: Rig, options: { patrons: number; prefix: string; holdable: number }): Promise<Desk> {
  const libraryId = 101;
  const cards = await addPatrons(rig, libraryId, options.prefix, options.patrons);
  const instant = await rig.admin.sampleContent(libraryId, { purchaseModel: 'INSTANT', active: true, count: 400 });
  const flex = await holdableTitles(rig, libraryId, options.holdable, `${options.prefix}9`);
  const search = await expectOk<{ hits: { title?: string }[] }>(rig, 'liveSearch', { libraryId, q: 'the', limit: 50 });
  const words = [...new Set(search.hits.flatMap((item) => (item.title ?? '').toLowerCase().split(/\W+/)).filter((w) => w.length > 3))];
  return {
    rig, libraryId, cards, instant, holdable: flex, words: words.length > 0 ? words : ['the'],
    loans: new Map(cards.map((c) => [c, new Set()])), holds: new Map(cards.map((c) => [c, new Set()])),
  };
}

/** Flex titles with every free copy out, one borrower per copy (a patron borrows a title once), so each takes holds. */
export async function holdableTitles(rig: Rig, libraryId: number, wanted: number, prefix: string): Promise<number[]> {
  const flex = await rig.admin.sampleContent(libraryId, { purchaseModel: 'FLEX', active: true, status: 'BORROW', count: wanted });
  const occupiers = await addPatrons(rig, libraryId, prefix, 10);
  for (const contentId of flex) {
    for (const card of occupiers) if (!(await callAsStaff(rig, 'borrow', { libraryId, card, contentId })).ok) break;
  }
  return flex;
}

/**
 * A call as staff make it when the desk says the service asked it to wait (issue #34: a staff call
 * past a few seconds' wait is answered at once with the time to wait): they wait that long (on the
 * rig's simulated clock) and try again. Hundreds of set-up borrows in a row spend the credential's
 * minute; the runs measure what follows, not this.
 */
export async function callAsStaff(rig: Rig, method: string, args: unknown): ReturnType<Rig['call']> {
  for (let attempt = 0; ; attempt++) {
    const result = await rig.call(method, args);
    const seconds = !result.ok && result.error.reason === 'service.wait' ? Number(result.error.params?.seconds) : Number.NaN;
    if (result.ok || !Number.isFinite(seconds) || attempt >= 5) return result;
    rig.advanceTo(rig.clock.now() + seconds * 1000);
  }
}

function pick<T>(rig: Rig, items: readonly T[]): T {
  const item = items[Math.floor(rig.random() * items.length)];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
}

export function judgeRead(kind: string, result: { ok: boolean; error?: ErrorInfo; value?: unknown }): ActionResult {
  if (result.ok) {
    const problems = (result.value as { problems?: { error: ErrorInfo }[] } | undefined)?.problems ?? [];
    if (problems.length === 0) return { kind, verdict: 'completed' };
    const unclear = problems.map((p) => unclearBecause(p.error)).find(Boolean);
    return unclear ? { kind, verdict: 'silent', why: `part of the view failed: ${unclear}` } : { kind, verdict: 'clear-failure', error: problems[0]?.error };
  }
  const unclear = unclearBecause(result.error);
  if (unclear) return { kind, verdict: 'silent', why: unclear, ...(result.error ? { error: result.error } : {}) };
  return { kind, verdict: RULE_CODES.has(result.error?.code ?? '') ? 'rules' : 'clear-failure', ...(result.error ? { error: result.error } : {}) };
}

type Mutation = 'borrow' | 'returnTitle' | 'placeHold' | 'removeHold';

/** Runs a patron action and compares what staff were told with what the service now holds. */
export async function mutate(desk: Desk, method: Mutation, card: string, contentId: number): Promise<ActionResult> {
  const { rig, libraryId } = desk;
  const result = await rig.call(method, { libraryId, card, contentId });
  const truth = await rig.admin.patronState(libraryId, card);
  const list = method === 'borrow' || method === 'returnTitle' ? truth.loans : truth.holds;
  const present = list.includes(contentId);
  const wanted = method === 'borrow' || method === 'placeHold';
  const happened = present === wanted;
  desk.loans.set(card, new Set(truth.loans));
  desk.holds.set(card, new Set(truth.holds));
  if (result.ok) {
    return happened ? { kind: method, verdict: 'completed' } : { kind: method, verdict: 'silent', why: 'reported done, but the service does not hold it' };
  }
  const judged = judgeRead(method, result);
  if (judged.verdict === 'silent') return judged;
  if (happened && judged.verdict !== 'rules' && !saysUnknown(result.error)) {
    return { kind: method, verdict: 'silent', why: `reported failed (${result.error?.code}), but it happened`, ...(result.error ? { error: result.error } : {}) };
  }
  return judged;
}

/** A look at the Collection: a page of the mirror, or availability read now for titles on screen. */
export async function mirrorRead(desk: Desk): Promise<ActionResult> {
  const { rig, libraryId } = desk;
  if (rig.random() < 0.5) return judgeRead('collectionBrowse', await rig.call('collectionBrowse', { libraryId, offset: Math.floor(rig.random() * 500), limit: 100 }));
  const ids = Array.from({ length: 8 }, () => pick(rig, desk.instant.concat(desk.holdable)));
  return judgeRead('collectionLiveAvailability', await rig.call('collectionLiveAvailability', { libraryId, contentIds: ids }));
}

/** One action of a desk day, chosen at random with the weights of a circulation desk. */
export async function oneAction(desk: Desk): Promise<ActionResult> {
  const { rig, libraryId } = desk;
  const card = pick(rig, desk.cards);
  const roll = rig.random();
  if (roll < 0.3) return judgeRead('lookupPatron', await rig.call('lookupPatron', { libraryId, card }));
  if (roll < 0.45) return judgeRead('liveSearch', await rig.call('liveSearch', { libraryId, q: pick(rig, desk.words), limit: 20 }));
  if (roll < 0.55) {
    const ids = Array.from({ length: 5 }, () => pick(rig, desk.instant.concat(desk.holdable)));
    return judgeRead('liveAvailability', await rig.call('liveAvailability', { libraryId, contentIds: ids }));
  }
  if (roll < 0.8) {
    const onLoan = [...(desk.loans.get(card) ?? [])];
    if (onLoan.length >= 3 || (onLoan.length > 0 && rig.random() < 0.4)) return mutate(desk, 'returnTitle', card, pick(rig, onLoan));
    const free = desk.instant.filter((id) => !onLoan.includes(id));
    return mutate(desk, 'borrow', card, pick(rig, free));
  }
  const onHold = [...(desk.holds.get(card) ?? [])];
  if (desk.holdable.length === 0) return judgeRead('lookupPatron', await rig.call('lookupPatron', { libraryId, card }));
  if (onHold.length >= 2 || (onHold.length > 0 && rig.random() < 0.4)) return mutate(desk, 'removeHold', card, pick(rig, onHold));
  const free = desk.holdable.filter((id) => !onHold.includes(id));
  if (free.length === 0) return mutate(desk, 'removeHold', card, pick(rig, onHold));
  return mutate(desk, 'placeHold', card, pick(rig, free));
}

export interface Tally {
  counts: Record<Verdict, number>;
  byKind: Map<string, Record<Verdict, number>>;
  examples: Map<string, string>;
}

export function newTally(): Tally {
  return { counts: { completed: 0, 'clear-failure': 0, rules: 0, silent: 0 }, byKind: new Map(), examples: new Map() };
}

export function count(tally: Tally, result: ActionResult): void {
  tally.counts[result.verdict] += 1;
  const kind = tally.byKind.get(result.kind) ?? { completed: 0, 'clear-failure': 0, rules: 0, silent: 0 };
  kind[result.verdict] += 1;
  tally.byKind.set(result.kind, kind);
  if (result.verdict !== 'completed') {
    const key = `${result.verdict} ${result.error?.code ?? ''}`;
    if (!tally.examples.has(key)) tally.examples.set(key, `${result.kind}: ${result.why ?? ''}${result.why ? ' — ' : ''}${result.error?.message ?? ''}`.slice(0, 220));
  }
}

export function tallyNotes(tally: Tally): string[] {
  const notes = [...tally.byKind].map(([kind, v]) => `${kind}: ${v.completed} completed, ${v['clear-failure']} failed with a message, ${v.rules} lending-rule answers, ${v.silent} silent`);
  for (const [key, example] of tally.examples) notes.push(`e.g. [${key.trim()}] ${example}`);
  return notes;
}
