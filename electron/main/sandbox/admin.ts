// HTTP mirror of SandboxControl under /__sandbox/, for driving a sandbox from tests and the
// command line. Only reachable with the sandbox's admin token (service.ts checks it).

import type { CatalogChanges } from './catalog-changes.ts';
import type { ContentFilter, SandboxControl } from './control.ts';
import type { FaultSpec } from './faults.ts';
import { HttpError } from './http-error.ts';
import { parseId } from './query.ts';
import type { Reply } from './routes/context.ts';
import type { ShapeChanges } from './shapes.ts';

const MAX_BODY_BYTES = 1_000_000;

function readJson(text: string): unknown {
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON');
  }
}

/** Control methods throw plain Errors on bad input; over HTTP that is the caller's 400. */
function asBadRequest<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, error instanceof Error ? error.message : String(error));
  }
}

function contentFilter(query: URLSearchParams): ContentFilter {
  const filter: ContentFilter = {};
  const model = query.get('purchaseModel');
  if (model === 'INSTANT' || model === 'FLEX') filter.purchaseModel = model;
  const active = query.get('active');
  if (active === 'true' || active === 'false') filter.active = active === 'true';
  const status = query.get('status');
  if (status === 'BORROW' || status === 'HOLD' || status === 'UNAVAILABLE') filter.status = status;
  const format = query.get('format');
  if (format !== null) filter.format = format as ContentFilter['format'];
  const count = query.get('count');
  if (count !== null) filter.count = parseId('count', count);
  return filter;
}

export async function handleAdmin(
  request: { method: string; body: () => Promise<string> },
  action: string,
  query: URLSearchParams,
  control: SandboxControl,
  info: () => unknown,
): Promise<Reply> {
  const route = `${request.method} ${action}`;
  switch (route) {
    case 'GET info':
      return { status: 200, body: info() };
    case 'POST faults': {
      const body = readJson(await request.body());
      asBadRequest(() => control.addFault(body as FaultSpec));
      return { status: 204 };
    }
    case 'DELETE faults':
      control.clearFaults();
      return { status: 204 };
    case 'POST revoke-tokens':
      control.revokeTokens();
      return { status: 204 };
    case 'GET issued-tokens':
      return { status: 200, body: control.issuedTokens() };
    case 'GET request-counts':
      return { status: 200, body: control.requestCounts() };
    case 'DELETE request-counts':
      control.resetRequestCounts();
      return { status: 204 };
    case 'GET request-log': {
      const from = query.get('from');
      return { status: 200, body: control.requestLog(from === null ? 0 : parseId('from', from)) };
    }
    case 'POST clock': {
      const body = readJson(await request.body()) as { advanceMs?: unknown };
      asBadRequest(() => control.advanceClock(body.advanceMs as number));
      return { status: 204 };
    }
    case 'GET patron-state': {
      const libraryId = parseId('libraryId', query.get('libraryId') ?? undefined);
      return { status: 200, body: control.patronState(libraryId, query.get('card') ?? '') };
    }
    case 'POST patrons': {
      const body = readJson(await request.body()) as { libraryId?: unknown; card?: unknown; borrowsAllowedPerMonth?: unknown };
      asBadRequest(() => control.addPatron(body.libraryId as number, body.card as string, body.borrowsAllowedPerMonth as number | undefined));
      return { status: 204 };
    }
    case 'POST catalog-changes': {
      const body = readJson(await request.body());
      return { status: 200, body: asBadRequest(() => control.applyCatalogChanges(body as CatalogChanges)) };
    }
    case 'POST shapes': {
      const body = readJson(await request.body());
      asBadRequest(() => control.setShapes(body as ShapeChanges));
      return { status: 204 };
    }
    case 'POST rate-limit': {
      const body = readJson(await request.body()) as { perMinute?: unknown };
      asBadRequest(() => control.setRateLimit(body.perMinute === null ? null : (body.perMinute as number)));
      return { status: 204 };
    }
    case 'GET rate-limit':
      return { status: 200, body: control.rateLimit() };
    case 'POST modes': {
      const body = readJson(await request.body());
      asBadRequest(() => control.setModes(body as Parameters<SandboxControl['setModes']>[0]));
      return { status: 204 };
    }
    case 'GET sample-content': {
      const libraryId = parseId('libraryId', query.get('libraryId') ?? undefined);
      return { status: 200, body: { contentIds: control.sampleContent(libraryId, contentFilter(query)) } };
    }
    default:
      throw new HttpError(404, `No sandbox admin route ${route}`);
  }
}
