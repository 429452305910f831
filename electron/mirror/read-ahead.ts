// Pages one ahead: while the caller writes page n, page n+1 is already requested, so the
// service prepares it and the network carries it while the mirror works, instead of each
// waiting for the other. `beforeNext` runs before every request after the first (the rate
// limiter), and only when `hasNext` says the page has a successor. The request is given a turn
// of the event loop to leave before the caller's synchronous writing starts.

export async function* readAhead<T>(
  pages: AsyncGenerator<T>, hasNext: (page: T) => boolean, beforeNext: () => Promise<void>,
): AsyncGenerator<T> {
  let pending: Promise<IteratorResult<T>> | undefined = pages.next();
  try {
    while (pending) {
      const current = await pending;
      pending = undefined;
      if (current.done) return;
      if (hasNext(current.value)) {
        pending = beforeNext().then(() => pages.next());
        // Awaited on the next turn of this loop; until then a failure is not "unhandled".
        pending.catch(() => {});
        await new Promise((resolve) => setImmediate(resolve));
      }
      yield current.value;
    }
  } finally {
    // Done, or the caller stopped early (an error, an abort): the source is closed, once the
    // request it has in flight settles.
    const open = pending;
    if (open) void open.then(() => pages.return(undefined), () => {});
    else void pages.return(undefined);
  }
}
