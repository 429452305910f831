// Builds `window.lendingDesk` from the contract: one function per method, plus `on` for the
// contract's events. Given the transport as arguments so that the Electron preload
// (ipcRenderer) and the Chromium test host (fetch + EventSource) expose the same shape.

import { EVENT_NAMES, METHOD_NAMES, type EventName, type EventPayloads, type LendingDeskApi, type MethodName } from '../shared/contract.ts';

export type Invoke = (method: MethodName, args: unknown, call?: unknown) => Promise<unknown>;
export type Subscribe = (event: EventName, listener: (payload: unknown) => void) => () => void;

export function createBridge(invoke: Invoke, subscribe: Subscribe): LendingDeskApi {
  const api: Record<string, unknown> = {};
  // The call's options (a call id it may be cancelled by) travel beside the argument, only when given.
  for (const name of METHOD_NAMES) api[name] = (args?: unknown, call?: unknown) => (call === undefined ? invoke(name, args) : invoke(name, args, call));
  api.on = <E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): (() => void) => {
    if (!EVENT_NAMES.includes(event)) throw new Error(`Unknown event ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('A listener must be a function');
    return subscribe(event, listener as (payload: unknown) => void);
  };
  return Object.freeze(api) as LendingDeskApi;
}
