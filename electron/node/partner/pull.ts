// A bulk pull: page after page, each asked for on the token the page before it names, until a
// page names none. One page is asked for ahead: as soon as a page's bytes arrive, the token its
// first bytes show (the metadata leads a page) is asked for, while the page itself is read and
// stored elsewhere; the token read from the whole page has the last word, and a wrong guess is
// cancelled on the wire. This is the only place a token is guessed.
//
// A page that comes garbled (the reader refuses it as 'bad-response') is asked for again, up to
// `attempts` reads in all. Tokens that lead back to a page already read (A, B, A…) end the pull
// with an error instead of going round forever. `signal` cancels the pull and both requests.
import { DeskError } from '../../shared/desk-error.ts';
import type { Bytes } from './bytes.ts';
import { leadingNextToken } from './normalize.ts';

/** What a page says of the pull, as the reader of its bytes answers. */
export interface PullStep { next?: string }

export interface PullOptions<R extends PullStep> {
  fetchPage(token: string | undefined, signal: AbortSignal): Promise<Bytes>;
  /** Reads (or hands on) a page's bytes; they may be moved elsewhere, so they are not touched after. */
  take(bytes: Bytes): Promise<R>;
  startToken?: string;
  attempts: number;
  /** False: the next page is asked for only once this one is taken (the library mirror service: a successor fetches again at most the page that was being stored). */
  ahead?: boolean;
  signal?: AbortSignal;
}

interface Asked { token: string | undefined; bytes: Promise<Bytes>; stop: AbortController }

const isGarbled = (error: unknown): boolean => error instanceof DeskError && error.code === 'bad-response';

export async function* pullPages<R extends PullStep>(options: PullOptions<R>): AsyncGenerator<R> {
  const { fetchPage, take, attempts, signal } = options;
  const ask = (token: string | undefined): Asked => {
    const stop = new AbortController();
    const bytes = fetchPage(token, signal ? AbortSignal.any([signal, stop.signal]) : stop.signal);
    bytes.catch(() => {}); // awaited below, or cancelled (a wrong guess, the pull stopping)
    return { token, bytes, stop };
  };
  const read = new Set<string | undefined>();
  let current = ask(options.startToken);
  let ahead: Asked | undefined;
  try {
    for (;;) {
      let step: R;
      for (let attempt = 1; ; attempt++) {
        const bytes = await current.bytes;
        const guess = leadingNextToken(bytes); // before `take`, which may move the bytes away
        if (options.ahead !== false && guess !== undefined && guess !== ahead?.token && guess !== current.token && !read.has(guess)) {
          ahead?.stop.abort();
          ahead = ask(guess);
        }
        try {
          step = await take(bytes);
          break;
        } catch (error) {
          if (!isGarbled(error) || attempt >= attempts || signal?.aborted) throw error;
          current = ask(current.token); // the page ahead, if any, stays asked for: the same page names the same token
        }
      }
      read.add(current.token);
      yield step;
      const { next } = step;
      if (next === undefined) return;
      if (read.has(next)) throw DeskError.because('bad-response', 'pull.token-cycle', { token: next });
      if (ahead?.token === next) {
        current = ahead;
      } else {
        ahead?.stop.abort();
        current = ask(next);
      }
      ahead = undefined;
    }
  } finally {
    current.stop.abort();
    ahead?.stop.abort();
  }
}
