// The Chromium host (test-only, never packaged): serves the built renderer on 127.0.0.1 through
// main's own app:// handler (electron/main/app/app-protocol.ts, so every e2e page load exercises
// it) and answers the contract with the same DeskService main uses — real keychain through keytar,
// real settings file through conf, real sandbox over HTTP. The page gets a bridge of the
// same shape as the preload's (bridge-script.ts), so the same e2e specs run here and in
// Electron.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { EventName, EventPayloads } from '../../../electron/shared/contract.ts';
import { createKeytarVault } from '../../../electron/main/credentials/index.ts';
import { dispatch } from '../../../electron/main/ipc/dispatch.ts';
import { APP_ORIGIN, createRendererHandler } from '../../../electron/main/app/app-protocol.ts';
import { loadMachinePolicy, type LoadMachinePolicyOptions } from '../../../electron/main/policy/index.ts';
import type { DeskService } from '../../../electron/main/desk/desk-service.ts';
import { createNodeDesk } from '../../support/node-desk.ts';
import { inProcessSandbox } from '../../../electron/main/connection/sandbox-endpoint.ts';
import { memoryClipboard } from '../../../electron/main/desk/clipboard.ts';
import { keychainLogKey } from '../../../electron/main/action-log/log-key.ts';
import { keychainDeskRecords } from '../../../electron/main/credentials/desk-keychain.ts';
import { provisionDeskPin } from '../../support/desk-pin.ts';
import { ADMIN_HEADER, createSandboxService, type SandboxOptions, type SandboxService } from '../../../electron/main/sandbox/server.ts';

export interface DeskHostOptions {
  /** Settings and logs live here, as in Electron's user data folder. */
  userDataDir: string;
  /** The keychain service name: a test-only one keeps real entries apart. */
  keychainService: string;
  rendererDir?: string;
  /** Where the machine policy is read from (a spec's own trusted folder); the machine's own sources otherwise. */
  policy?: LoadMachinePolicyOptions;
  /** `none`: a desk on which no desk PIN was set yet; otherwise it has the test desk PIN. */
  deskPin?: 'test' | 'none';
  /** The built-in sandbox's strict modes (its reading of content ids, how its deltas show removals). */
  sandbox?: Pick<SandboxOptions, 'ids' | 'removals' | 'covers' | 'entitlementFilters'>;
  /** As main finds for a Windows copy installed for all users (the MSI, per-machine NSIS). */
  installedForAllUsers?: boolean;
}

export interface DeskHost {
  url: string;
  desk: DeskService;
  close(): Promise<void>;
}

export async function startDeskHost(options: DeskHostOptions): Promise<DeskHost> {
  const rendererDir = options.rendererDir ?? join(import.meta.dirname, '..', '..', '..', 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error(`No built renderer in ${rendererDir}: run \`npx electron-vite build\` first.`);
  const listeners = new Set<ServerResponse>();
  const emit = <E extends EventName>(event: E, payload: EventPayloads[E]): void => {
    for (const res of listeners) res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
  };
  const policy = loadMachinePolicy(options.policy);
  // The built-in sandbox runs in-process, as in the product; the specs steer it through the
  // host's /__sandbox/ routes (a test-only door the product does not have).
  let sandbox: SandboxService | undefined;
  // The system clipboard of this desk, readable by the specs at /__clipboard.
  const clipboard = memoryClipboard();
  // The desk's records (sign-in, connections, the log's head) in the same test-only keychain service.
  const keychain = keychainDeskRecords({ service: options.keychainService });
  if ((options.deskPin ?? 'test') === 'test') await provisionDeskPin(keychain);
  const { desk, logger } = createNodeDesk({
    clipboard,
    sandbox: async () => inProcessSandbox((sandbox = createSandboxService(options.sandbox))),
    dir: options.userDataDir,
    vault: createKeytarVault({ service: options.keychainService }),
    // The action log's key in the same (test-only) keychain service, as main keeps it.
    actionLogKey: keychainLogKey({ service: options.keychainService }),
    keychain,
    deskPin: 'none',
    policy: policy.policy,
    policyProblem: policy.problems,
    version: '0.0.0-e2e',
    ...(options.installedForAllUsers ? { installedForAllUsers: true } : {}),
    emit,
  });

  // Of main's background tasks, the log's retention (the specs drive the rest themselves).
  desk.background.start({ only: ['retention'] });
  const serveRenderer = createRendererHandler({ root: rendererDir, readFile: (file) => readFile(file) });
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://host');
    if (req.method === 'POST' && url.pathname.startsWith('/__contract/')) {
      const body = await readBody(req);
      const parsed = body === '' ? {} : (JSON.parse(body) as { args?: unknown; call?: unknown });
      const result = await dispatch(desk, decodeURIComponent(url.pathname.slice('/__contract/'.length)), parsed.args, logger, parsed.call);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/__clipboard') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: clipboard.text }));
      return;
    }
    if (url.pathname.startsWith('/__sandbox/')) {
      if (!sandbox) {
        res.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'The sandbox is not running' }));
        return;
      }
      const body = await readBody(req);
      const outcome = await sandbox.respond({
        method: req.method ?? 'GET', rawUrl: req.url ?? '/', headers: { ...req.headers, [ADMIN_HEADER]: sandbox.adminToken }, body: async () => body,
      });
      const reply = outcome.kind === 'reply' ? outcome.reply : { status: 500, body: { message: `admin route answered ${outcome.kind}` } };
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/__events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      listeners.add(res);
      req.on('close', () => listeners.delete(res));
      return;
    }
    // The request target exactly as sent (not normalised), under the app's origin.
    const response = await serveRenderer({ url: `${APP_ORIGIN}${req.url ?? '/'}`, method: req.method ?? 'GET' });
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the host did not get a port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    desk,
    async close() {
      for (const res of listeners) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await desk.background.stop();
      await desk.close();
      logger.close();
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { text += chunk; });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
