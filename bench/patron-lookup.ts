// Patron lookup with a slow service: the sandbox adds 150 ms to every response; DeskService
// loads status, loans and holds in parallel after one Enter, so the whole view should cost
// about one request's latency, not three. Printed with its ratio; nothing asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryVault } from '../electron/main/credentials/index.ts';
import { PartnerClient } from '../electron/node/partner/client.ts';
import { sandboxOverHttp } from '../electron/main/connection/sandbox-endpoint.ts';
import { startSandbox, type SandboxHandle } from '../electron/main/sandbox/server.ts';
import { TEST_DESK_PIN } from '../tests/support/desk-pin.ts';
import { createNodeDesk } from '../tests/support/node-desk.ts';

const ROUNDS = 20;
const LATENCY_MS = 150;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function benchPatronLookup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-lookup-'));
  let handle: SandboxHandle | undefined;
  const { desk, logger } = createNodeDesk({
    dir,
    vault: createMemoryVault(),
    sandbox: async () => {
      const sandbox = await startSandbox({ catalogSize: 5000 });
      handle = sandbox;
      sandbox.control.addFault({ route: '*', kind: 'latency', ms: LATENCY_MS });
      return sandboxOverHttp(sandbox);
    },
    version: 'bench',
  });
  try {
    const info = await desk.useSandbox();
    await desk.startShift({ staffName: 'bench', pin: TEST_DESK_PIN });
    const sandbox = handle!;
    const { libraryId, cards } = sandbox.libraries[0]!;
    const card = cards[1]!;
    const single = new PartnerClient({ baseUrl: sandbox.url, credentials: { username: sandbox.username, password: sandbox.password } });
    await single.patronStatus(libraryId, card);
    await desk.lookupPatron({ libraryId, card });
    const one: number[] = [];
    const view: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let started = performance.now();
      await single.patronStatus(libraryId, card);
      one.push(performance.now() - started);
      started = performance.now();
      await desk.lookupPatron({ libraryId, card });
      view.push(performance.now() - started);
    }
    const a = median(one);
    const b = median(view);
    console.log(`Patron lookup, sandbox adding ${LATENCY_MS} ms to every response, ${ROUNDS} rounds (${info.mode})`);
    console.log(`  one request (patron status)              median ${a.toFixed(0)} ms`);
    console.log(`  whole patron view (status, loans, holds) median ${b.toFixed(0)} ms`);
    console.log(`  ratio view / one request: ${(b / a).toFixed(2)}x (3 requests in parallel; 3.00x if sequential)`);
  } finally {
    await desk.close();
    logger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
