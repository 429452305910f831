// The typed partner client: every endpoint of the spec, one clean shape out (model.ts), one
// closed set of errors (errors.ts). Fetch is injected: Electron's net.fetch in the product
// (it honours the system proxy), Node's fetch in tests.

import { reasonText, type Reason } from '../../shared/reasons.ts';
import type { ServiceMismatch } from '../../shared/collection.ts';
import { DeskError } from '../../shared/desk-error.ts';
import type {
  Availability, CatalogChange, Country, Entitlement, Format, Hold, LibraryContentChange, Loan, Page, PatronStatus,
  PurchaseModel, SearchPage,
} from '../../shared/model.ts';
import { COUNTRIES, FORMATS } from '../../shared/model.ts';
import type { ContentId } from '../../shared/content-id.ts';
import {
  asSentence, parseAvailabilityList, parseBulkPage, parseEntitlementPage, parseGlobalContentPage, parseHold, parseHolds, parseLibraryContentPage,
  parseLoan, parseLoans, parsePatronStatus, parseSearchPage,
} from './normalize.ts';
import { decoded, type Bytes } from './bytes.ts';
import { BATCH_LIMIT, CONTENT_INFO_BATCH } from './limits.ts';
import { pullPages, type PullStep } from './pull.ts';
import { apiPath, checkCard, checkContentId, checkLibraryId } from './paths.ts';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts';
import { errorForStatus, fallbackMessage, type Operation } from './status-codes.ts';
import { TokenSource, type Credentials } from './token.ts';
import { HttpStatusError, Transport, type FetchFn, type Priority, type RequestSpec, type SendGate } from './transport.ts';
import { SharedReads } from './shared-reads.ts';

/** How long an answer is kept for the desk (issue #34): a search a minute, availability a few seconds. Patron reads are never kept. */
export const KEPT_MS: Partial<Record<Operation, number>> = { search: 60_000, contentInfo: 15_000 };

export { BATCH_LIMIT, CONTENT_INFO_BATCH } from './limits.ts';

export interface PartnerClientOptions {
  baseUrl: string;
  /** Read when a token is needed, so a replaced password takes effect without a new client. */
  credentials: Credentials | (() => Promise<Credentials>);
  fetch?: FetchFn;
  /** The `ws-api` header; empty to omit it. */
  wsApi?: string;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  contentInfoConcurrency?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The connection's request budget: every exchange on the wire passes it. */
  gate?: SendGate;
  /** Told of an answer that disagrees with its question (content info about ids not asked): the log and the Sync view. */
  onMismatch?: (mismatch: ServiceMismatch) => void;
}

/** What the desk and background views of one client share: one transport (one Retry-After gate) and one token. */
interface ClientCore {
  transport: Transport;
  tokens: TokenSource;
  contentInfoConcurrency: number;
  /** Reads of a bulk page that came garbled, the first included, before the pull gives up. */
  garbledPageAttempts: number;
  onMismatch: (mismatch: ServiceMismatch) => void;
  /** Identical reads in flight share a request; some answers are kept a short while. */
  reads: SharedReads;
}

/** A mutation's result; `confirmedByReread` when the answer was lost and the patron's list told us. */
export interface Confirmed<T> {
  value: T;
  confirmedByReread: boolean;
}

export interface SearchQuery {
  q: string;
  offset?: number;
  limit?: number;
  kidsMode?: boolean;
  formats?: Format[];
  purchaseModel?: PurchaseModel;
}

export interface BulkOptions {
  /** Only changes since this time (epoch ms): a delta. */
  since?: number;
  limit?: number;
  /** Resume from a page token stored after an earlier page. */
  startToken?: string;
}

export interface GlobalContentOptions extends BulkOptions {
  countries?: Country[];
}

export interface EntitlementOptions extends BulkOptions {
  status?: 'active' | 'inactive' | 'all';
  purchaseModel?: PurchaseModel;
}

export interface LibraryContentOptions extends BulkOptions {
  purchaseModel?: PurchaseModel;
}

/** Failures after which a mutation may or may not have taken effect on the service. */
function isAmbiguous(error: unknown): error is DeskError {
  return error instanceof DeskError && ['network', 'timeout', 'server', 'bad-response'].includes(error.code);
}

/** A request the library server carries for a desk: the partner's own path, query and headers. */
export interface RelayRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/** The service's answer to a relayed request: a 2xx with its body as sent, or another status with the service's words. */
export interface RelayAnswer {
  status: number;
  body?: Bytes;
  message?: string;
  retryAfterMs?: number;
}

/** One bulk pull: which list, and its options (a delta's base, the page size, a stored token to resume from). */
export type BulkPull =
  | ({ kind: 'global' } & GlobalContentOptions)
  | ({ kind: 'entitlements'; libraryId: number } & EntitlementOptions)
  | ({ kind: 'library-content'; libraryId: number } & LibraryContentOptions);

export class PartnerClient {
  private readonly core: ClientCore;
  /** Whose requests these are: the desk's go first through the connection's budget. */
  readonly priority: Priority;

  /** From options, a new client; from another client's core (withPriority), a view of it. */
  constructor(options: PartnerClientOptions | { shared: ClientCore; priority: Priority }) {
    if ('shared' in options) {
      this.core = options.shared;
      this.priority = options.priority;
      return;
    }
    this.priority = 'desk';
    const now = options.now ?? Date.now;
    const transport = new Transport({
      baseUrl: options.baseUrl,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      wsApi: options.wsApi ?? '2.1',
      timeoutMs: options.timeoutMs ?? 15_000,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      now,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      random: options.random ?? Math.random,
      ...(options.gate ? { gate: options.gate } : {}),
    });
    const { credentials } = options;
    this.core = {
      transport,
      tokens: new TokenSource(transport, typeof credentials === 'function' ? credentials : async () => credentials, now),
      contentInfoConcurrency: Math.max(1, options.contentInfoConcurrency ?? 3),
      garbledPageAttempts: Math.max(1, options.retry?.attempts ?? DEFAULT_RETRY.attempts),
      onMismatch: options.onMismatch ?? (() => {}),
      reads: new SharedReads(now),
    };
  }

  /** The same client (token, Retry-After, budget) for work of another priority. */
  withPriority(priority: Priority): PartnerClient {
    return new PartnerClient({ shared: this.core, priority });
  }

  get baseUrl(): string {
    return this.core.transport.baseUrl;
  }

  /** Forgets every answer kept for the desk (the lock: what was searched is what a patron asked for). */
  forgetAnswers(): void {
    this.core.reads.forget();
  }

  /** Asks for a token: proves the address and the credentials. */
  async testConnection(): Promise<void> {
    this.core.tokens.invalidateAll();
    await this.core.tokens.get(this.priority);
  }

  // ---- patron reads ----

  // `signal` cancels a read nobody wants any more (a superseded lookup): before it is sent, it spends no budget.

  async patronStatus(libraryId: number, card: string, signal?: AbortSignal): Promise<PatronStatus> {
    return parsePatronStatus(await this.get('patronRead', this.patronPath(libraryId, card, 'status'), undefined, undefined, signal));
  }

  async currentLoans(libraryId: number, card: string, signal?: AbortSignal): Promise<Loan[]> {
    return parseLoans(await this.get('patronRead', this.patronPath(libraryId, card, 'checkouts', 'current'), undefined, undefined, signal));
  }

  async currentHolds(libraryId: number, card: string, signal?: AbortSignal): Promise<Hold[]> {
    return parseHolds(await this.get('patronRead', this.patronPath(libraryId, card, 'holds', 'current'), undefined, undefined, signal));
  }

  // ---- patron actions: never blindly retried; an ambiguous failure is settled by re-reading ----

  async borrow(libraryId: number, card: string, contentId: ContentId): Promise<Confirmed<Loan>> {
    const asked = checkContentId(contentId);
    const path = this.patronPath(libraryId, card, asked);
    const onLoan = async () => (await this.currentLoans(libraryId, card)).find((l) => l.contentId === asked);
    const confirmed = await this.mutate<Loan>('borrow', path, 'POST', parseLoan, async () => {
      const loan = await onLoan();
      return loan ? { done: true, value: loan } : { done: false };
    }, 'action.not-borrowed');
    return this.answeredFor(asked, confirmed, async () => (await onLoan()) !== undefined, ['action.borrow-answered-other', 'action.borrow-answered-other-on-loan']);
  }

  async placeHold(libraryId: number, card: string, contentId: ContentId): Promise<Confirmed<Hold>> {
    const asked = checkContentId(contentId);
    const path = this.patronPath(libraryId, card, 'holds', asked);
    const onHold = async () => (await this.currentHolds(libraryId, card)).find((h) => h.contentId === asked);
    try {
      const confirmed = await this.mutate<Hold>('placeHold', path, 'POST', parseHold, async () => {
        const hold = await onHold();
        return hold ? { done: true, value: hold } : { done: false };
      }, 'action.hold-not-placed');
      return await this.answeredFor(asked, confirmed, async () => (await onHold()) !== undefined, ['action.hold-answered-other', 'action.hold-answered-other-placed']);
    } catch (error) {
      // The service answers 409 both for a hold already there and for a title already on loan;
      // the loans list tells which, so staff are not told "on hold" about a borrowed title.
      if (!(error instanceof DeskError) || error.code !== 'already-on-hold') throw error;
      const lent = await this.currentLoans(libraryId, card).then((loans) => loans.some((l) => l.contentId === asked), () => false);
      throw lent ? new DeskError('already-borrowed', fallbackMessage('already-borrowed'), error.status) : error;
    }
  }

  async returnTitle(libraryId: number, card: string, contentId: ContentId): Promise<Confirmed<void>> {
    const path = this.patronPath(libraryId, card, checkContentId(contentId));
    return this.mutate<void>('returnTitle', path, 'DELETE', () => undefined, async () => {
      const still = (await this.currentLoans(libraryId, card)).some((l) => l.contentId === contentId);
      return still ? { done: false } : { done: true, value: undefined };
    }, 'action.still-on-loan');
  }

  async removeHold(libraryId: number, card: string, contentId: ContentId): Promise<Confirmed<void>> {
    const path = this.patronPath(libraryId, card, 'holds', checkContentId(contentId));
    return this.mutate<void>('removeHold', path, 'DELETE', () => undefined, async () => {
      const still = (await this.currentHolds(libraryId, card)).some((h) => h.contentId === contentId);
      return still ? { done: false } : { done: true, value: undefined };
    }, 'action.hold-still-there');
  }

  // ---- catalog ----

  async search(libraryId: number, query: SearchQuery, signal?: AbortSignal): Promise<SearchPage> {
    const q = checkSearch(query);
    const body = await this.get('search', apiPath('libraries', checkLibraryId(libraryId), 'search'), {
      q: q.q, offset: q.offset, limit: q.limit,
      kind: q.formats?.length ? q.formats.join(',') : undefined,
      purchaseModel: q.purchaseModel,
    }, { 'kids-mode': q.kidsMode ? 'true' : 'false' }, signal);
    return parseSearchPage(body);
  }

  /**
   * Availability for any number of titles: 50 ids a call, a few calls at a time. Answers are
   * matched to the ids asked: one per id, in the order asked, an answer for an id not asked
   * not used; ids the service left out are asked once more, and those still missing come back
   * `unknown` (Aspen does the same). Either is reported as a mismatch (the log and the Sync view,
   * issue #34: they were dropped without a word). `signal` cancels every call. `fresh`: asked of
   * the service even when an answer is kept (staff asked to refresh what they look at).
   */
  async contentInfo(libraryId: number, contentIds: readonly ContentId[], signal?: AbortSignal, { fresh = false }: { fresh?: boolean } = {}): Promise<Availability[]> {
    const ids = [...new Set(contentIds.map(checkContentId))];
    const unasked: ContentId[] = [];
    const first = this.matchedTo(ids, await this.contentInfoOnce(libraryId, ids, signal, fresh), unasked);
    const missing = ids.filter((id) => !first.has(id));
    // Asked again afresh: an answer kept from the first asking would leave them out again.
    const again = missing.length === 0 ? first : this.matchedTo(missing, await this.contentInfoOnce(libraryId, missing, signal, true), unasked);
    const answers = ids.map((contentId): Availability => first.get(contentId) ?? again.get(contentId) ?? { contentId, unknown: true });
    const unanswered = answers.filter((a) => a.unknown).map((a) => a.contentId);
    if (unasked.length > 0 || unanswered.length > 0) {
      const named = [...new Set([...unasked, ...unanswered])].slice(0, 10).map(String);
      this.core.onMismatch({ kind: 'content-info', libraryId, unasked: unasked.length, unanswered: unanswered.length, ids: named });
    }
    return answers;
  }

  /** The answers about the ids asked, the first of each; the ids of answers about others go to `unasked`. */
  private matchedTo(asked: readonly ContentId[], answers: Availability[], unasked: ContentId[]): Map<ContentId, Availability> {
    const wanted = new Set(asked);
    const matched = new Map<ContentId, Availability>();
    for (const answer of answers) {
      if (!wanted.has(answer.contentId)) unasked.push(answer.contentId);
      else if (!matched.has(answer.contentId)) matched.set(answer.contentId, answer);
    }
    return matched;
  }

  /** One pass over the ids: 50 a call, a few calls at a time. */
  private async contentInfoOnce(libraryId: number, ids: readonly ContentId[], signal: AbortSignal | undefined, fresh = false): Promise<Availability[]> {
    const path = apiPath('libraries', checkLibraryId(libraryId), 'content', 'info');
    const batches: ContentId[][] = [];
    for (let i = 0; i < ids.length; i += CONTENT_INFO_BATCH) batches.push(ids.slice(i, i + CONTENT_INFO_BATCH));
    const results: Availability[][] = new Array(batches.length);
    let nextBatch = 0;
    const worker = async (): Promise<void> => {
      while (nextBatch < batches.length) {
        const index = nextBatch++;
        const batch = batches[index] as ContentId[];
        results[index] = parseAvailabilityList(await this.get('contentInfo', path, { contentIds: batch.join(',') }, undefined, signal, fresh));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.core.contentInfoConcurrency, batches.length) }, worker));
    return results.flat();
  }

  /**
   * The library's content record for one content id, read on demand (a search hit the desk's copy
   * does not hold yet, a title newly entitled): a page of the library content list starting just
   * before the id, as another integration of the service reads one title (startToken = id - 1).
   * Two ids are asked for, so the record is there whether the service counts the token in or
   * out. The page's bytes, for the mirror to read as it reads any library content page.
   */
  async libraryContentAround(libraryId: number, contentId: number, signal?: AbortSignal): Promise<Bytes> {
    if (!Number.isInteger(contentId) || contentId < 1) throw new DeskError('invalid-input', 'A title is looked up by a whole-number id.');
    const body = await this.authorized('bulk', {
      method: 'GET', path: apiPath('libraries', checkLibraryId(libraryId), 'content'),
      query: { startToken: contentId - 1, limit: 2, purchaseModel: 'ALL' }, retry: true, bytes: true, ...(signal ? { signal } : {}),
    });
    return (body ?? []) as Bytes;
  }

  globalContentPages(options: GlobalContentOptions = {}): AsyncGenerator<Page<CatalogChange>> {
    return this.parsedPages({ kind: 'global', ...options }, parseGlobalContentPage);
  }

  entitlementPages(libraryId: number, options: EntitlementOptions = {}): AsyncGenerator<Page<Entitlement>> {
    return this.parsedPages({ kind: 'entitlements', libraryId, ...options }, parseEntitlementPage);
  }

  libraryContentPages(libraryId: number, options: LibraryContentOptions = {}): AsyncGenerator<Page<LibraryContentChange>> {
    return this.parsedPages({ kind: 'library-content', libraryId, ...options }, parseLibraryContentPage);
  }

  /**
   * A bulk pull, each page's bytes given to `take` as they came (the sync hands them to the
   * mirror, which reads them). `take` answers with what the page says of the pull (its next
   * token, read from the page); each answer is yielded. The next page is asked for as soon as
   * its token is known (pullPages); `signal` cancels the pull and the request on the wire.
   */
  bulkPages<R extends PullStep>(pull: BulkPull, take: (bytes: Bytes) => Promise<R>, signal?: AbortSignal, { ahead = true }: { ahead?: boolean } = {}): AsyncGenerator<R> {
    const { path, query, firstToken } = bulkRequest(pull);
    const fetchPage = (token: string | undefined, cancel: AbortSignal): Promise<Bytes> =>
      this.authorized('bulk', { method: 'GET', path, query: { ...query, startToken: token }, retry: true, bytes: true, signal: cancel }) as Promise<Bytes>;
    return pullPages({ fetchPage, take, startToken: pull.startToken ?? firstToken, attempts: this.core.garbledPageAttempts, ahead, ...(signal ? { signal } : {}) });
  }

  /** A bulk pull read here: each page parsed in this thread (tests, the benchmark's HTTP limit). */
  private parsedPages<T>(pull: BulkPull, parse: (body: unknown) => Page<T>): AsyncGenerator<Page<T>> {
    return this.bulkPages(pull, async (bytes) => parse(parseBulkPage(decoded(bytes))));
  }

  // ---- plumbing ----

  /**
   * A borrow or hold answered about another content than the one asked is not done for the one
   * asked: the patron's account is read again, and staff are told what the service answered and
   * what the account shows (answer-mismatch; never retried here).
   */
  private async answeredFor<T extends { contentId: ContentId }>(
    asked: ContentId, confirmed: Confirmed<T>, askedIsThere: () => Promise<boolean>, [notThere, there]: [Reason, Reason],
  ): Promise<Confirmed<T>> {
    const answered = confirmed.value.contentId;
    if (answered === asked) return confirmed;
    const params = { asked: String(asked), answered: String(answered) };
    const found = await askedIsThere().catch(() => undefined);
    const reason: Reason = found === undefined ? 'action.outcome-unknown' : found ? there : notThere;
    throw new DeskError('answer-mismatch', reasonText(reason, params), undefined, { reason, params });
  }

  private patronPath(libraryId: number, card: string, ...rest: ContentId[]): string {
    return apiPath('libraries', checkLibraryId(libraryId), 'patrons', checkCard(card), ...rest);
  }

  /**
   * A read: shared with an identical one in flight of the same priority, and for the desk kept a
   * while where the operation's answers may be (KEPT_MS); background work always asks afresh.
   */
  private get(op: Operation, path: string, query?: RequestSpec['query'], headers?: Record<string, string>, signal?: AbortSignal, fresh = false): Promise<unknown> {
    const key = JSON.stringify([this.priority, op, path, query ?? {}, headers ?? {}]);
    const keepMs = this.priority === 'desk' ? KEPT_MS[op] ?? 0 : 0;
    const fetch = (shared: AbortSignal) => this.authorized(op, { method: 'GET', path, query, headers, retry: true, signal: shared });
    return this.core.reads.read(fresh ? `${key} fresh` : key, op, fresh ? 0 : keepMs, signal, fetch);
  }

  /** One transparent renewal when the service refuses the token; then the status's meaning for `op`. */
  private async authorized(op: Operation, spec: Omit<RequestSpec, 'authorization'>): Promise<unknown> {
    for (let renewed = false; ; renewed = true) {
      const token = await this.core.tokens.get(this.priority);
      try {
        return (await this.core.transport.request({ ...spec, authorization: `Bearer ${token}`, priority: this.priority })).body;
      } catch (error) {
        if (error instanceof HttpStatusError && error.status === 401 && !renewed) {
          this.core.tokens.invalidate(token);
          continue;
        }
        throw error instanceof HttpStatusError ? errorForStatus(op, error) : error;
      }
    }
  }

  /**
   * One request as another client asked for it (the library server carrying a desk's call): sent
   * once with this client's token (renewed once if the service refuses it), through this client's
   * budget and Retry-After, and answered as the service answered — a 2xx with its bytes, any other
   * status with the service's words and wait — for the asking client to read as its own. Only a
   * failure to reach the service at all (network, timeout) throws.
   */
  async relay(request: RelayRequest, signal?: AbortSignal): Promise<RelayAnswer> {
    for (let renewed = false; ; renewed = true) {
      const token = await this.core.tokens.get(this.priority);
      try {
        const answer = await this.core.transport.request({
          method: request.method, path: request.path, query: request.query, headers: request.headers,
          authorization: `Bearer ${token}`, retry: false, bytes: true, priority: this.priority, ...(signal ? { signal } : {}),
        });
        return { status: answer.status, body: (answer.body ?? []) as Bytes };
      } catch (error) {
        if (!(error instanceof HttpStatusError)) throw error;
        if (error.status === 401 && !renewed) {
          this.core.tokens.invalidate(token);
          continue;
        }
        return {
          status: error.status, ...(error.serverMessage === undefined ? {} : { message: error.serverMessage }),
          ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
        };
      }
    }
  }

  /**
   * Sends a patron action once. When its outcome is unknown, the patron's account settles it.
   * Only when the service itself answered 5xx — so it has finished with the request — and the
   * account shows it did not happen, is it sent one more time; after a timeout or a dropped
   * connection the first request may still be working, so staff decide.
   */
  private async mutate<T>(
    op: Operation, path: string, method: 'POST' | 'DELETE', parse: (body: unknown) => T,
    reread: () => Promise<{ done: true; value: T } | { done: false }>, notDone: Reason,
  ): Promise<Confirmed<T>> {
    // An action moves availability: what was kept of it is old now, and so is what is read while it goes.
    this.core.reads.forget('contentInfo');
    try {
      return await this.send(op, path, method, parse, reread, notDone);
    } finally {
      this.core.reads.forget('contentInfo');
    }
  }

  private async send<T>(
    op: Operation, path: string, method: 'POST' | 'DELETE', parse: (body: unknown) => T,
    reread: () => Promise<{ done: true; value: T } | { done: false }>, notDone: Reason,
  ): Promise<Confirmed<T>> {
    for (let resent = false; ; resent = true) {
      try {
        const body = await this.authorized(op, { method, path, retry: false });
        return { value: parse(body), confirmedByReread: false };
      } catch (error) {
        if (!isAmbiguous(error)) throw error;
        let outcome: Awaited<ReturnType<typeof reread>>;
        try {
          outcome = await reread();
        } catch {
          throw new DeskError(error.code, `${asSentence(error.message)} ${reasonText('action.outcome-unknown')}`, error.status, { ...error.detail, reason: 'action.outcome-unknown', params: {} });
        }
        if (outcome.done) return { value: outcome.value, confirmedByReread: true };
        if (error.code === 'server' && (error.status ?? 0) >= 500 && !resent) continue;
        throw new DeskError(error.code, `${asSentence(error.message)} ${reasonText(notDone)}`, error.status, { ...error.detail, reason: notDone, params: {} });
      }
    }
  }
}

const GLOBAL_CONTENTS = apiPath('global-contents');

/** A pull's path and checked query, and the token of its first page where the list wants one. */
function bulkRequest(pull: BulkPull): { path: string; query: RequestSpec['query']; firstToken?: string } {
  switch (pull.kind) {
    case 'global': return { path: GLOBAL_CONTENTS, query: globalContentsQuery(pull) };
    case 'entitlements': return { path: apiPath('libraries', checkLibraryId(pull.libraryId), 'entitlements'), query: entitlementsQuery(pull) };
    case 'library-content': return {
      path: apiPath('libraries', checkLibraryId(pull.libraryId), 'content'),
      query: {
        limit: checkLimit(pull.limit),
        startTime: pull.since === undefined ? undefined : isoSeconds(pull.since),
        purchaseModel: pull.purchaseModel === undefined ? 'ALL' : checkModel(pull.purchaseModel),
      },
      firstToken: '0',
    };
  }
}

/** A library's entitlements pull's query, checked. */
function entitlementsQuery(options: EntitlementOptions): RequestSpec['query'] {
  const status = options.status ?? 'all';
  if (!['active', 'inactive', 'all'].includes(status)) {
    throw new DeskError('invalid-input', 'The entitlement status must be active, inactive or all.');
  }
  return {
    limit: checkLimit(options.limit),
    startTime: epochSeconds(options.since),
    status,
    purchaseModel: options.purchaseModel === undefined ? 'All' : checkModel(options.purchaseModel) === 'FLEX' ? 'Flex' : 'Instant',
  };
}

/** The global catalog pull's query, checked. */
function globalContentsQuery(options: GlobalContentOptions): RequestSpec['query'] {
  const countries = options.countries?.map((c) => checkCountry(c));
  return { countryCodes: countries?.length ? countries.join(',') : undefined, limit: checkLimit(options.limit), startTime: epochSeconds(options.since) };
}

function checkLimit(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (Number.isInteger(limit) && limit >= 1 && limit <= BATCH_LIMIT) return limit;
  throw new DeskError('invalid-input', `The page size must be a whole number from 1 to ${BATCH_LIMIT} (the service's batch limit).`);
}

function checkModel(model: unknown): PurchaseModel {
  if (model === 'INSTANT' || model === 'FLEX') return model;
  throw new DeskError('invalid-input', 'The purchase model must be INSTANT or FLEX.');
}

function checkCountry(country: unknown): Country {
  if ((COUNTRIES as readonly unknown[]).includes(country)) return country as Country;
  throw new DeskError('invalid-input', `The country must be one of ${COUNTRIES.join(', ')}.`);
}

function checkTime(ms: number): number {
  if (Number.isFinite(ms) && ms > 0) return ms;
  throw new DeskError('invalid-input', 'The delta start time must be a valid time.');
}

const epochSeconds = (ms: number | undefined): number | undefined => (ms === undefined ? undefined : Math.floor(checkTime(ms) / 1000));
const isoSeconds = (ms: number): string => new Date(Math.floor(checkTime(ms) / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function checkSearch(query: SearchQuery): Required<Pick<SearchQuery, 'q'>> & SearchQuery {
  if (typeof query !== 'object' || query === null) throw new DeskError('invalid-input', 'The search needs a query.');
  const q = typeof query.q === 'string' ? query.q.trim() : '';
  if (q === '') throw new DeskError('invalid-input', 'Type something to search for.');
  if (q.length > 200) throw new DeskError('invalid-input', 'The search text is too long (more than 200 characters).');
  const offset = query.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new DeskError('invalid-input', 'The search offset must be a whole number, 0 or more.');
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new DeskError('invalid-input', 'Search results per page must be from 1 to 100.');
  for (const f of query.formats ?? []) {
    if (!FORMATS.includes(f)) throw new DeskError('invalid-input', `Unknown format ${JSON.stringify(f)}.`);
  }
  const purchaseModel = query.purchaseModel === undefined ? undefined : checkModel(query.purchaseModel);
  return { ...query, q, offset, limit, purchaseModel };
}
