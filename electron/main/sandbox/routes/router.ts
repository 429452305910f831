// Maps a method and the decoded path segments to a route. Segments are decoded one by one
// after splitting the raw path, so an encoded '/' inside a library card stays in the card.

import type { RouteName } from '../route-names.ts';
import { contentInfo } from './content-info.ts';
import type { Handler, RouteParams } from './context.ts';
import { entitlements } from './entitlements.ts';
import { globalContents } from './global-contents.ts';
import { libraryContent } from './library-content.ts';
import { borrow, currentCheckouts, currentHolds, patronStatus, placeHold, removeHold, returnTitle } from './patron.ts';
import { search } from './search.ts';
import { issueToken } from './token.ts';

export interface RouteMatch {
  route: RouteName;
  handler: Handler;
  params: RouteParams;
}

export type RouteLookup = { kind: 'match'; match: RouteMatch } | { kind: 'wrong-method'; allowed: string[] } | { kind: 'none' };

type MethodTable = Partial<Record<string, [RouteName, Handler]>>;

const tokenHandler: Handler = (context) => issueToken(context.state, context.method, context.headers);

function lookup(table: MethodTable, method: string, params: RouteParams): RouteLookup {
  const entry = table[method];
  if (entry === undefined) return { kind: 'wrong-method', allowed: Object.keys(table) };
  return { kind: 'match', match: { route: entry[0], handler: entry[1], params } };
}

function patronRoute(method: string, rest: string[], params: RouteParams): RouteLookup {
  const [first, second, ...extra] = rest;
  if (extra.length > 0 || first === undefined) return { kind: 'none' };
  if (second === undefined) {
    if (first === 'status' && method === 'GET') return lookup({ GET: ['status', patronStatus] }, method, params);
    return lookup({ POST: ['borrow', borrow], DELETE: ['return', returnTitle] }, method, { ...params, contentId: first });
  }
  if (first === 'checkouts' && second === 'current') return lookup({ GET: ['checkouts', currentCheckouts] }, method, params);
  if (first === 'holds') {
    if (second === 'current' && method === 'GET') return lookup({ GET: ['holds', currentHolds] }, method, params);
    return lookup({ POST: ['placeHold', placeHold], DELETE: ['removeHold', removeHold] }, method, { ...params, contentId: second });
  }
  return { kind: 'none' };
}

export function findRoute(method: string, segments: string[]): RouteLookup {
  const [api, version, resource, libraryId, area, ...rest] = segments;
  if (api !== 'api' || version !== 'v1') return { kind: 'none' };
  if (resource === 'get-token' && libraryId === undefined) {
    // Any method reaches the token route; it answers 401 to everything but a proper POST.
    return { kind: 'match', match: { route: 'token', handler: tokenHandler, params: {} } };
  }
  if (resource === 'global-contents' && libraryId === undefined) return lookup({ GET: ['globalContents', globalContents] }, method, {});
  if (resource !== 'libraries' || libraryId === undefined) return { kind: 'none' };
  const params: RouteParams = { libraryId };
  if (area === 'content' && rest.length === 0) return lookup({ GET: ['libraryContent', libraryContent] }, method, params);
  if (area === 'content' && rest.length === 1 && rest[0] === 'info') return lookup({ GET: ['contentInfo', contentInfo] }, method, params);
  if (area === 'entitlements' && rest.length === 0) return lookup({ GET: ['entitlements', entitlements] }, method, params);
  if (area === 'search' && rest.length === 0) return lookup({ GET: ['search', search] }, method, params);
  if (area === 'patrons' && rest.length >= 2) {
    const [card, ...patronRest] = rest;
    return patronRoute(method, patronRest, { ...params, card });
  }
  return { kind: 'none' };
}
