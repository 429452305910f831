// @vitest-environment happy-dom
// The gateway: every contract call comes back as a Result (a bridge that throws included), main's
// session-locked locks the desk whoever called, and the stale-answer guard drops what belongs to
// a superseded request or a reset scope.
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PatronView, Result } from '../../../electron/shared/contract.ts';
import { useGateway } from '../../../src/gateway/gateway.ts';
import { useLifecycle, type LifecycleEvent } from '../../../src/lifecycle.ts';
import { fail, installFakeDesk, ok, PATRON, sandboxInfo } from './fake-desk.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

beforeEach(() => setActivePinia(createPinia()));

describe('gateway calls', () => {
  it('hand back the Result main gave, with the arguments passed through unchanged', async () => {
    const desk = installFakeDesk(sandboxInfo());
    const answer = await useGateway().call('lookupPatron', { libraryId: 101, card: '0012345' });
    expect(answer).toEqual(ok(PATRON));
    expect(desk.lookupPatron).toHaveBeenCalledWith({ libraryId: 101, card: '0012345' });
  });

  it('turn a bridge that throws, or no bridge at all, into a Result staff can be told about', async () => {
    const desk = installFakeDesk(sandboxInfo());
    desk.listActions.mockRejectedValueOnce(new Error('IPC channel closed'));
    const thrown = await useGateway().call('listActions', { offset: 0, limit: 20 });
    expect(thrown).toMatchObject({ ok: false, error: { code: 'server', reason: 'desk.no-answer' } });
    expect(JSON.stringify(thrown)).not.toContain('IPC channel closed');

    (window as unknown as { lendingDesk: unknown }).lendingDesk = undefined;
    expect(await useGateway().call('appInfo')).toMatchObject({ ok: false, error: { code: 'server', reason: 'desk.no-answer' } });
  });

  it("lock the desk on main's session-locked, whichever method got it, and only then", async () => {
    const desk = installFakeDesk(sandboxInfo());
    const events: LifecycleEvent[] = [];
    useLifecycle().on(['deskLocked'], (event) => events.push(event));
    desk.listActions.mockResolvedValueOnce(fail('session-locked', 'No staff shift is open.'));
    desk.liveSearch.mockResolvedValueOnce(fail('network', 'Could not reach the lending service.'));
    await useGateway().call('liveSearch', { libraryId: 101, q: 'x' });
    expect(events).toEqual([]);
    await useGateway().call('listActions', { offset: 0, limit: 20 });
    expect(events).toEqual([{ type: 'deskLocked', reason: 'system' }]);
  });

  it('pass events from main through, and stop when unsubscribed', () => {
    const desk = installFakeDesk(sandboxInfo());
    const reasons: string[] = [];
    const off = useGateway().on('sessionLocked', (payload) => reasons.push(payload.reason));
    desk.emit('sessionLocked', { reason: 'system' });
    off();
    desk.emit('sessionLocked', { reason: 'idle' });
    expect(reasons).toEqual(['system']);
  });
});

describe('the stale-answer guard', () => {
  it('drops the answer of a request a newer one superseded', async () => {
    const desk = installFakeDesk(sandboxInfo());
    const slow = deferred<Result<PatronView>>();
    desk.lookupPatron.mockReturnValueOnce(slow.promise).mockResolvedValueOnce(ok({ ...PATRON, libraryId: 202 }));
    const scope = useGateway().scope();
    const first = scope.latest('lookupPatron', { libraryId: 101, card: '1' });
    const second = await scope.latest('lookupPatron', { libraryId: 202, card: '2' });
    slow.resolve(ok(PATRON));
    expect(await first).toBeUndefined();
    expect(second).toEqual(ok({ ...PATRON, libraryId: 202 }));
  });

  it('drops every answer still to come after a reset, and keeps requests beside each other until then', async () => {
    const desk = installFakeDesk(sandboxInfo());
    const scope = useGateway().scope();
    const both = await Promise.all([scope.alongside('syncStatus'), scope.alongside('liveAvailability', { libraryId: 101, contentIds: [1] })]);
    expect(both.every((answer) => answer?.ok)).toBe(true);

    const slow = deferred<Result<PatronView>>();
    desk.lookupPatron.mockReturnValueOnce(slow.promise);
    const live = scope.live();
    const pending = scope.alongside('lookupPatron', { libraryId: 101, card: '1' });
    scope.reset();
    slow.resolve(ok(PATRON));
    expect(await pending).toBeUndefined();
    expect(live()).toBe(false);
    expect(scope.live()()).toBe(true);
  });

  it('still honours a lock in an answer it drops', async () => {
    const desk = installFakeDesk(sandboxInfo());
    const events: LifecycleEvent[] = [];
    useLifecycle().on('deskLocked', (event) => events.push(event));
    const slow = deferred<Result<PatronView>>();
    desk.lookupPatron.mockReturnValueOnce(slow.promise);
    const scope = useGateway().scope();
    const pending = scope.latest('lookupPatron', { libraryId: 101, card: '1' });
    scope.reset();
    slow.resolve(fail('session-locked', 'No staff shift is open.'));
    expect(await pending).toBeUndefined();
    expect(events).toHaveLength(1);
  });

  it('keeps scopes apart: resetting one leaves another', async () => {
    installFakeDesk(sandboxInfo());
    const gateway = useGateway();
    const a = gateway.scope();
    const b = gateway.scope();
    const pending = b.alongside('syncStatus');
    a.reset();
    expect(await pending).toMatchObject({ ok: true });
  });
});
