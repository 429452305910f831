// The page side of the Chromium host: `window.lendingDesk` with exactly the contract's method
// names plus `on`, as the preload's createBridge builds it, over fetch and EventSource.
// Passed to page.addInitScript, so it must be self-contained (no imports at run time).
export function installHostBridge({ methods, events }: { methods: string[]; events: string[] }): void {
  const api: Record<string, unknown> = {};
  for (const name of methods) {
    // The call's options (a call id main can cancel it by) beside the argument, as the preload sends them.
    api[name] = async (args?: unknown, call?: unknown) => {
      const response = await fetch(`/__contract/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ args, call }) });
      return response.json();
    };
  }
  let source: EventSource | undefined;
  api.on = (event: string, listener: (payload: unknown) => void) => {
    if (!events.includes(event)) throw new Error(`Unknown event ${event}`);
    source ??= new EventSource('/__events');
    const wrapped = (e: MessageEvent<string>): void => listener(JSON.parse(e.data));
    source.addEventListener(event, wrapped);
    return () => source?.removeEventListener(event, wrapped);
  };
  Object.defineProperty(window, 'lendingDesk', { value: Object.freeze(api), writable: false, configurable: false });
}
