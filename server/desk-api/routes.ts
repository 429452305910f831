// What a desk may ask the library server for, read from its request. Desks speak the partner's
// own API (the same paths, queries and answers: the desk's partner client is unchanged, only its
// address and credentials are the server's), and may ask exactly the calls staff make for a
// patron: status, loans, holds, borrow, return, place and remove a hold, search, content info —
// at the libraries this server serves. Besides those: the token (for the workstation), a desk's
// enrolment, and hello (who is this server, which libraries).
import type { RelayRequest } from '../../electron/node/partner/client.ts';

/** A staff call, named as the action log and the audit trail name it. */
export type StaffOperation =
  | 'patron-status' | 'loans' | 'holds' | 'borrow' | 'return' | 'place-hold' | 'remove-hold' | 'search' | 'content-info';

export type DeskCall =
  | { kind: 'token' }
  | { kind: 'enrol' }
  | { kind: 'hello' }
  | { kind: 'sign-in' }
  | { kind: 'sign-out' }
  | { kind: 'audit' }
  | { kind: 'staff'; operation: StaffOperation; libraryId: number; card?: string; contentId?: string; relay: RelayRequest };

export type Refusal = { kind: 'refused'; status: number; message: string };

const API = '/api/v1';
/** The query parameters each call carries on to the partner; any other is dropped. */
const KEPT_QUERY: Partial<Record<StaffOperation, readonly string[]>> = {
  search: ['q', 'offset', 'limit', 'kind', 'purchaseModel'],
  'content-info': ['contentIds'],
};

const refused = (status: number, message: string): Refusal => ({ kind: 'refused', status, message });

/** The call a desk's request makes, or why it is refused. `served`: the libraries this server carries calls for. */
export function deskCallOf(method: string, url: URL, served: ReadonlySet<number>): DeskCall | Refusal {
  const path = url.pathname;
  if (path === `${API}/get-token`) return method === 'POST' ? { kind: 'token' } : refused(405, 'Ask for a token with POST.');
  if (path === '/desk/v1/enrol') return method === 'POST' ? { kind: 'enrol' } : refused(405, 'Enrol with POST.');
  if (path === '/desk/v1/hello') return method === 'GET' ? { kind: 'hello' } : refused(405, 'Say hello with GET.');
  if (path === '/desk/v1/sign-in') return method === 'POST' ? { kind: 'sign-in' } : refused(405, 'Sign in with POST.');
  if (path === '/desk/v1/sign-out') return method === 'POST' ? { kind: 'sign-out' } : refused(405, 'Sign out with POST.');
  if (path === '/desk/v1/audit') return method === 'GET' ? { kind: 'audit' } : refused(405, 'Read the audit trail with GET.');
  const parts = path.split('/');
  // '', 'api', 'v1', 'libraries', {id}, …
  if (parts.length < 6 || `/${parts[1]}/${parts[2]}` !== API || parts[3] !== 'libraries') return refused(404, 'The library server carries no such call.');
  const libraryId = Number(parts[4]);
  if (!Number.isInteger(libraryId) || !served.has(libraryId)) return refused(403, 'This library server does not serve that library.');
  const rest = parts.slice(5);
  const operation = operationOf(method, rest);
  if (!operation) return refused(404, 'The library server carries no such call.');
  const keep = KEPT_QUERY[operation] ?? [];
  const query = Object.fromEntries([...url.searchParams].filter(([name]) => keep.includes(name)));
  const relay: RelayRequest = { method: method as RelayRequest['method'], path, ...(Object.keys(query).length > 0 ? { query } : {}) };
  const decode = (segment: string | undefined): string | undefined => {
    if (segment === undefined) return undefined;
    try {
      return decodeURIComponent(segment);
    } catch {
      return undefined;
    }
  };
  const card = rest[0] === 'patrons' ? decode(rest[1]) : undefined;
  const contentId = operation === 'borrow' || operation === 'return' ? decode(rest[2]) : operation === 'place-hold' || operation === 'remove-hold' ? decode(rest[3]) : undefined;
  return { kind: 'staff', operation, libraryId, relay, ...(card === undefined ? {} : { card }), ...(contentId === undefined ? {} : { contentId }) };
}

function operationOf(method: string, rest: string[]): StaffOperation | undefined {
  const [first, card, third, fourth, ...more] = rest;
  if (first === 'search' && rest.length === 1) return method === 'GET' ? 'search' : undefined;
  if (first === 'content' && card === 'info' && rest.length === 2) return method === 'GET' ? 'content-info' : undefined;
  if (first !== 'patrons' || !card || more.length > 0) return undefined;
  if (third === 'status' && fourth === undefined) return method === 'GET' ? 'patron-status' : undefined;
  if (third === 'checkouts' && fourth === 'current') return method === 'GET' ? 'loans' : undefined;
  if (third === 'holds' && fourth === 'current') return method === 'GET' ? 'holds' : undefined;
  if (third === 'holds' && fourth) return method === 'POST' ? 'place-hold' : method === 'DELETE' ? 'remove-hold' : undefined;
  if (third && fourth === undefined) return method === 'POST' ? 'borrow' : method === 'DELETE' ? 'return' : undefined;
  return undefined;
}
