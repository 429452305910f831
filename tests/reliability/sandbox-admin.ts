// The sandbox's control surface as the reliability runs use it: the same calls whether the
// sandbox runs in this process (its `control` object) or in a process of its own (its
// `/__sandbox/` admin routes). Async either way, so a scenario is written once.
import { ADMIN_HEADER, type CatalogChanges, type ContentFilter, type FaultSpec, type RouteName, type SandboxControl } from '../../electron/main/sandbox/server.ts';

export interface PatronState {
  exists: boolean;
  loans: number[];
  holds: number[];
}

export interface SandboxAdmin {
  addFault(fault: FaultSpec): Promise<void>;
  clearFaults(): Promise<void>;
  addPatron(libraryId: number, card: string, borrowsAllowedPerMonth: number): Promise<void>;
  patronState(libraryId: number, card: string): Promise<PatronState>;
  sampleContent(libraryId: number, filter: ContentFilter): Promise<number[]>;
  requestCounts(): Promise<Record<RouteName, number>>;
  applyCatalogChanges(changes: CatalogChanges): Promise<{ added: number[] }>;
  advanceClock(ms: number): Promise<void>;
  issuedTokens(): Promise<string[]>;
  /** Remote only: clock time the desk moved on that the sandbox has not been told of yet. */
  owe(ms: number): void;
  /** Tells the sandbox of owed clock time before a request reaches it (a no-op in process). */
  syncClock(): Promise<void>;
}

export function inProcessAdmin(control: SandboxControl): SandboxAdmin {
  return {
    addFault: async (fault) => control.addFault(fault),
    clearFaults: async () => control.clearFaults(),
    addPatron: async (libraryId, card, allowance) => control.addPatron(libraryId, card, allowance),
    // The runs use the sandbox's default (spec) reading, where every content id is a number.
    patronState: async (libraryId, card) => control.patronState(libraryId, card) as PatronState,
    sampleContent: async (libraryId, filter) => control.sampleContent(libraryId, filter) as number[],
    requestCounts: async () => control.requestCounts(),
    applyCatalogChanges: async (changes) => control.applyCatalogChanges(changes),
    advanceClock: async (ms) => control.advanceClock(ms),
    issuedTokens: async () => control.issuedTokens(),
    // The in-process sandbox reads the shared clock itself.
    owe: () => {},
    syncClock: async () => {},
  };
}

export function remoteAdmin(baseUrl: string, adminToken: string): SandboxAdmin {
  const call = async (method: string, route: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${baseUrl}/__sandbox/${route}`, {
      method,
      headers: { [ADMIN_HEADER]: adminToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`sandbox admin ${method} ${route}: HTTP ${response.status} ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  let owed = 0;
  let telling: Promise<void> = Promise.resolve();
  const admin: SandboxAdmin = {
    addFault: async (fault) => void (await call('POST', 'faults', fault)),
    clearFaults: async () => void (await call('DELETE', 'faults')),
    addPatron: async (libraryId, card, borrowsAllowedPerMonth) => void (await call('POST', 'patrons', { libraryId, card, borrowsAllowedPerMonth })),
    patronState: async (libraryId, card) => (await call('GET', `patron-state?libraryId=${libraryId}&card=${encodeURIComponent(card)}`)) as PatronState,
    sampleContent: async (libraryId, filter) => {
      const query = new URLSearchParams({ libraryId: String(libraryId) });
      for (const [key, value] of Object.entries(filter)) if (value !== undefined) query.set(key, String(value));
      return ((await call('GET', `sample-content?${query}`)) as { contentIds: number[] }).contentIds;
    },
    requestCounts: async () => (await call('GET', 'request-counts')) as Record<RouteName, number>,
    applyCatalogChanges: async (changes) => (await call('POST', 'catalog-changes', changes)) as { added: number[] },
    advanceClock: async (ms) => void (await call('POST', 'clock', { advanceMs: ms })),
    issuedTokens: async () => (await call('GET', 'issued-tokens')) as string[],
    owe: (ms) => {
      owed += ms;
    },
    // One telling at a time, so parallel requests move the sandbox's clock once, not once each.
    syncClock: () => {
      telling = telling.then(async () => {
        const ms = Math.floor(owed);
        if (ms <= 0) return;
        owed -= ms;
        await admin.advanceClock(ms);
      });
      return telling;
    },
  };
  return admin;
}
