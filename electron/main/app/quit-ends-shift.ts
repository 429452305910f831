// Nothing outlives the shift, quitting included: what the desk put on the clipboard goes on quit
// as it does on a lock. Electron 45's clipboard is promise-based and `will-quit` does not wait for
// promises, so the first `before-quit` is held (preventDefault) until the desk has ended its
// shift, then the quit goes on; a desk that does not answer within a few seconds does not keep
// the app from quitting.

/** How long quitting waits for the shift to end before it goes on (then quit.ts's QUIT_WAIT_MS for the desk to close: 8 s at most in all). */
export const SHIFT_END_WAIT_MS = 3_000;

/** The part of Electron's app this uses. */
export interface QuittingApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

export function endShiftBeforeQuit(app: QuittingApp, endShift: () => Promise<void>, timeoutMs = SHIFT_END_WAIT_MS): void {
  let ended = false;
  app.on('before-quit', (event) => {
    if (ended) return;
    event.preventDefault();
    const giveUp = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    void Promise.race([endShift().catch(() => undefined), giveUp]).finally(() => {
      ended = true;
      app.quit();
    });
  });
}
