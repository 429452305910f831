// What a route handler receives and returns. Handlers are pure over the state; the server owns
// sockets, auth and faults. The bulk routes answer asynchronously: they make their pages in
// slices (slices.ts), so a patron's request is answered between two slices of a page.

import type { IncomingHttpHeaders } from 'node:http';
import { HttpError } from '../http-error.ts';
import { findLibrary } from '../libraries.ts';
import type { LibraryDefinition } from '../libraries.ts';
import { parseId } from '../query.ts';
import type { SandboxState } from '../state.ts';

export interface RouteParams {
  libraryId?: string;
  card?: string;
  contentId?: string;
}

export interface RequestContext {
  state: SandboxState;
  method: string;
  params: RouteParams;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (context: RequestContext) => Reply | Promise<Reply>;

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const noContent = (): Reply => ({ status: 204 });

/** The library of a bulk route; an unknown one is a 404. */
export function libraryOf(context: RequestContext): LibraryDefinition {
  const libraryId = parseId('libraryId', context.params.libraryId);
  const library = findLibrary(libraryId);
  if (library === undefined) throw new HttpError(404, `No library ${libraryId}`);
  return library;
}
