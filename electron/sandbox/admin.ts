// HTTP mirror of SandboxControl under /__sandbox/, for driving a sandbox started from the
// command line. No auth: it listens on loopback and is a test tool.

import type { IncomingMessage } from 'node:http';
import type { CatalogChanges } from './catalog-changes.ts';
import type { ContentFilter, SandboxControl } from './control.ts';
import type { FaultSpec } from './faults.ts';
import { HttpError } from './http-error.ts';
import { parseId } from './query.ts';
import type { Reply } from './routes/context.ts';
import type { ShapeChanges } from './shapes.ts';

const MAX_BODY_BYTES = 1_000_000;

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large');
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
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
  request: IncomingMessage,
  action: string,
  query: URLSearchParams,
  control: SandboxControl,
  info: () => unknown,
): Promise<Reply> {
  const route = `${request.method ?? 'GET'} ${action}`;
  switch (route) {
    case 'GET info':
      return { status: 200, body: info() };
    case 'POST faults': {
      const body = await readJson(request);
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
      const body = (await readJson(request)) as { advanceMs?: unknown };
      asBadRequest(() => control.advanceClock(body.advanceMs as number));
      return { status: 204 };
    }
    case 'GET patron-state': {
      const libraryId = parseId('libraryId', query.get('libraryId') ?? undefined);
      return { status: 200, body: control.patronState(libraryId, query.get('card') ?? '') };
    }
    case 'POST patrons': {
      const body = (await readJson(request)) as { libraryId?: unknown; card?: unknown; borrowsAllowedPerMonth?: unknown };
      asBadRequest(() => control.addPatron(body.libraryId as number, body.card as string, body.borrowsAllowedPerMonth as number | undefined));
      return { status: 204 };
    }
    case 'POST catalog-changes': {
      const body = await readJson(request);
      return { status: 200, body: asBadRequest(() => control.applyCatalogChanges(body as CatalogChanges)) };
    }
    case 'POST shapes': {
      const body = await readJson(request);
      asBadRequest(() => control.setShapes(body as ShapeChanges));
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
