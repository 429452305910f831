// Talking to a sandbox over real HTTP with Node's fetch, on a clock the test moves.

import { startSandbox } from '../../../../electron/main/sandbox/server.ts';
import type { SandboxHandle, SandboxOptions } from '../../../../electron/main/sandbox/server.ts';
import { createClock, type Clock } from '../../../support/clock.ts';

export { createClock, type Clock };


export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Api {
  sandbox: SandboxHandle;
  clock: Clock;
  token: () => Promise<string>;
  /** An authorised request; the body is parsed JSON (undefined when empty). */
  call: <T = any>(method: string, path: string, headers?: Record<string, string>) => Promise<Reply<T>>;
  get: <T = any>(path: string, headers?: Record<string, string>) => Promise<Reply<T>>;
  patronPath: (libraryId: number, card: string, suffix?: string) => string;
  close: () => Promise<void>;
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export async function raw(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

export async function startApi(options: SandboxOptions = {}): Promise<Api> {
  const clock = createClock();
  const sandbox = await startSandbox({ catalogSize: 2000, now: clock.now, ...options });
  let cached: string | undefined;
  const token = async (): Promise<string> => {
    const reply = await raw(`${sandbox.url}/api/v1/get-token`, {
      method: 'POST',
      headers: { authorization: basic(sandbox.username, sandbox.password) },
    });
    return (reply.body as { access_token: string }).access_token;
  };
  const call = async (method: string, path: string, headers: Record<string, string> = {}): Promise<Reply<any>> => {
    cached ??= await token();
    return raw(`${sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${cached}`, accept: 'application/json', 'ws-api': '2.1', ...headers },
    });
  };
  return {
    sandbox,
    clock,
    token,
    call,
    get: (path, headers) => call('GET', path, headers),
    patronPath: (libraryId, card, suffix = '') => `/api/v1/libraries/${libraryId}/patrons/${encodeURIComponent(card)}${suffix}`,
    close: () => sandbox.close(),
  };
}

export function cardFor(api: Api, libraryId: number, role: string): string {
  const card = api.sandbox.libraries.find((library) => library.libraryId === libraryId)?.patrons.find((p) => p.role === role)?.card;
  if (card === undefined) throw new Error(`no ${role} patron in library ${libraryId}`);
  return card;
}

/** Follows a bulk feed to its end; `next` reads the page's next token. */
export async function pageAll<T>(
  api: Api,
  path: string,
  items: (body: any) => T[],
  next: (body: any) => string | number | undefined,
): Promise<{ pages: T[][]; all: T[] }> {
  const pages: T[][] = [];
  let token: string | number | undefined = 0;
  for (let guard = 0; guard < 10_000; guard += 1) {
    const separator = path.includes('?') ? '&' : '?';
    const reply = await api.get(`${path}${separator}startToken=${token}`);
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    pages.push(items(reply.body));
    token = next(reply.body);
    if (token === undefined) return { pages, all: pages.flat() };
  }
  throw new Error('paging never ended');
}
