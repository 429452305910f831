// startSandbox: the sandbox partner service (service.ts) on loopback HTTP, for `npm run
// sandbox`, the tests and the benches. The desk's built-in sandbox does not use it: it calls
// the service in-process and opens no socket.
//
// A socket on loopback is reachable by every process and every web page on the machine, so
// this one answers only what a partner client sends: a Host naming this address (no DNS
// rebinding), no Origin header (no web page), a password chosen at random unless the caller
// fixes one, and the admin routes only with the admin token.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SandboxControl } from './control.ts';
import type { Reply } from './routes/context.ts';
import { createSandboxService, oversizedBody, type SandboxLibrary, type SandboxOptions, type SandboxService } from './service.ts';
import { jsonInSlices } from './slices.ts';

export type { SandboxControl, ContentFilter } from './control.ts';
export type { FaultSpec, FaultKind } from './faults.ts';
export type { RouteName } from './route-names.ts';
export type { LoggedRequest } from './request-log.ts';
export type { CatalogChanges } from './catalog-changes.ts';
export type { ShapeChanges } from './shapes.ts';
export { ADMIN_HEADER, createSandboxService, IN_PROCESS_ORIGIN } from './service.ts';
export type { SandboxLibrary, SandboxOptions, SandboxPatron, SandboxService } from './service.ts';

export interface SandboxHandle {
  url: string;
  username: string;
  password: string;
  /** Sent as `x-sandbox-admin` to reach the /__sandbox/ admin routes. */
  adminToken: string;
  libraries: SandboxLibrary[];
  control: SandboxControl;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;

async function send(response: ServerResponse, reply: Reply): Promise<void> {
  if (response.destroyed || response.headersSent) return;
  if (reply.status === 204 || reply.body === undefined) {
    response.writeHead(reply.status, reply.headers ?? {});
    response.end();
    return;
  }
  // A bulk page's JSON is written in slices: other clients' requests are answered meanwhile.
  const text = await jsonInSlices(reply.body);
  if (response.destroyed || response.headersSent) return;
  response.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...reply.headers });
  response.end(text);
}

/** Streams the body a piece at a time, waiting for the socket to drain, and stops when the client hangs up. */
async function sendOversized(response: ServerResponse, bytes: number, declared: boolean): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...(declared ? { 'content-length': String(bytes) } : {}) });
  for (const chunk of oversizedBody(bytes)) {
    if (response.destroyed) return;
    if (!response.write(chunk)) {
      // Whichever comes first; the other listener goes too (one left per wait passed 10 on a 120 MB body).
      await new Promise<void>((resolve) => {
        const done = (): void => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.once('drain', done);
        response.once('close', done);
      });
    }
  }
  if (!response.destroyed) response.end();
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('Request body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Host names a client on this machine may use for the server's own address. */
function allowedHosts(address: AddressInfo): Set<string> {
  const port = address.port;
  const own = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return new Set([`${own}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
}

const refusal = (message: string): Reply => ({ status: 403, body: { message, detail: 'The sandbox answers partner clients on this machine only' } });

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  let url = '';
  let hosts = new Set<string>();
  const service: SandboxService = createSandboxService(options, () => ({ url }));
  const sockets = new Set<Socket>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A web page can reach loopback; a partner client sends no Origin, and names this host.
    if (request.headers.origin !== undefined) return send(response, refusal('Requests from web pages are refused'));
    if (!hosts.has(request.headers.host ?? '')) return send(response, refusal('Unknown Host'));
    const outcome = await service.respond({
      method: request.method ?? 'GET',
      rawUrl: request.url ?? '/',
      headers: request.headers,
      body: () => readBody(request),
    });
    switch (outcome.kind) {
      case 'stall':
        return; // never answered; close() ends the socket
      case 'reset':
        request.socket.destroy();
        return;
      case 'garbled':
        response.writeHead(outcome.status, { 'content-type': 'application/json; charset=utf-8' });
        response.end(outcome.text);
        return;
      case 'oversized':
        return sendOversized(response, outcome.bytes, outcome.declared);
      case 'reply':
        return send(response, outcome.reply);
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      void send(response, { status: 500, body: { message: 'The sandbox failed to handle this request', detail: error instanceof Error ? error.message : String(error) } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;
  hosts = allowedHosts(address);

  let closing: Promise<void> | undefined;
  return {
    url,
    username: service.username,
    password: service.password,
    adminToken: service.adminToken,
    libraries: service.libraries,
    control: service.control,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        service.close();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
