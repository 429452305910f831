// The bridge the renderer sees has exactly the contract's methods plus `on`, on both hosts.
// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { EVENT_NAMES, METHOD_NAMES } from '../../../../electron/shared/contract.ts';
import { createBridge } from '../../../../electron/preload/bridge.ts';
import { installHostBridge } from '../../../e2e/host/bridge-script.ts';

describe('bridges', () => {
  it('the preload bridge exposes the contract methods and `on`, and nothing else', async () => {
    const invoke = vi.fn(async () => ({ ok: true, value: 1 }));
    const unsubscribe = vi.fn();
    const subscribe = vi.fn(() => unsubscribe);
    const bridge = createBridge(invoke, subscribe);
    expect(Object.keys(bridge).sort()).toEqual([...METHOD_NAMES, 'on'].sort());
    expect(Object.isFrozen(bridge)).toBe(true);
    await bridge.lookupPatron({ libraryId: 1, card: '2' });
    expect(invoke).toHaveBeenCalledWith('lookupPatron', { libraryId: 1, card: '2' });
    const off = bridge.on('sessionLocked', () => {});
    expect(subscribe).toHaveBeenCalledWith('sessionLocked', expect.any(Function));
    off();
    expect(unsubscribe).toHaveBeenCalled();
    expect(() => bridge.on('nope' as never, () => {})).toThrow(/Unknown event/);
  });

  it('the Chromium host bridge has the same shape', () => {
    installHostBridge({ methods: [...METHOD_NAMES], events: [...EVENT_NAMES] });
    const hostBridge = (window as unknown as { lendingDesk: object }).lendingDesk;
    const preloadBridge = createBridge(async () => null, () => () => {});
    expect(Object.keys(hostBridge).sort()).toEqual(Object.keys(preloadBridge).sort());
  });
});
