// The floor under `relayVsDirectLookupP95` (issue #31): what one more process on the way costs on
// this machine when that process does nothing. Three processes besides this one's: a stand-in
// partner (HTTP, a small JSON answer to any GET, at once), a relay that does no work of its own
// (HTTPS in, as the library server's desk endpoint; the same request on to the partner with
// `fetch`, as the server's partner client; the bytes back), and a client that asks as a desk does
// (a lookup: three requests at once; straight to the partner with `fetch`, as a standalone desk's
// client; through the relay over one kept-alive HTTPS pool, as a library desk's link). Lookups
// alternate, a pause before each, so every process on the way is idle when one comes, as in the
// fleet's run 1 (each desk a lookup every 3 s). No database, no budget, no audit, no queue: a
// relay that does any of the server's work can only be slower than this.
//
// `node bench/relay-hop.ts [lookups] [pauseMs]` prints the figures and a RELAY-HOP-JSON line;
// `bench:fleet` runs it after its run 1 and prints it beside `relayVsDirectLookupP95`.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:net';
import { Agent, createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCertificateAuthority, makeServerCertificate } from '../tests/support/certificates.ts';
import { quantile } from './figures.ts';

export interface RelayHopFigures {
  lookups: number;
  directP50Ms: number;
  directP95Ms: number;
  relayP50Ms: number;
  relayP95Ms: number;
  /** Through the relay ÷ straight, p95: the least `relayVsDirectLookupP95` can be on this machine. */
  floorP95Ratio: number;
}

/** What a patron's loans look like on the wire: a few hundred bytes. */
const ANSWER = JSON.stringify({ items: Array.from({ length: 3 }, (_, i) => ({ contentId: 1000 + i, title: `A title of some length ${i}`, dueDate: '2026-12-20T00:00:00Z' })) });
const LOOKUP = ['/v1/status', '/v1/loans', '/v1/holds'];

type Role = { role: 'partner' } | { role: 'relay'; partner: string; keyFile: string; certFile: string } | { role: 'client'; partner: string; relay: string; ca: string; lookups: number; pauseMs: number };

/** Runs the three processes and answers the figures (about `lookups` × 2 × `pauseMs` of wall time). */
export async function measureRelayHop(lookups = 60, pauseMs = 1000): Promise<RelayHopFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-hop-'));
  const children: ReturnType<typeof fork>[] = [];
  const start = <T>(role: Role): Promise<T> => new Promise<T>((resolve, reject) => {
    const child = fork(import.meta.filename, [JSON.stringify(role)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    child.once('message', (answer) => resolve(answer as T));
    child.once('exit', (code) => reject(new Error(`the relay hop's ${role.role} process exited (${code})`)));
  });
  try {
    const ca = await makeCertificateAuthority(dir, 'hop-ca');
    const { certFile, keyFile } = await makeServerCertificate(dir, ca, 'hop-relay');
    const partner = await start<string>({ role: 'partner' });
    const relay = await start<string>({ role: 'relay', partner, keyFile, certFile });
    return await start<RelayHopFigures>({ role: 'client', partner, relay, ca: ca.cert, lookups, pauseMs });
  } finally {
    for (const child of children) {
      child.removeAllListeners('exit');
      child.kill();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Tells the parent the server's address once it listens (an HTTP and an HTTPS server are both a `net.Server`). */
function listen(server: Server, scheme: 'http' | 'https'): void {
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') process.send?.(`${scheme}://127.0.0.1:${address.port}`);
  });
}

function runPartner(): void {
  listen(createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) }).end(ANSWER));
  }), 'http');
}

function runRelay(role: Extract<Role, { role: 'relay' }>): void {
  const server = createHttpsServer({ key: readFileSync(role.keyFile), cert: readFileSync(role.certFile) }, (req, res) => {
    req.resume();
    void (async () => {
      try {
        const answer = await fetch(`${role.partner}${req.url ?? '/'}`, { headers: { accept: 'application/json' } });
        const body = Buffer.from(await answer.arrayBuffer());
        res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
      } catch (error) {
        res.writeHead(502).end(String(error));
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  listen(server, 'https');
}

async function runClient(role: Extract<Role, { role: 'client' }>): Promise<void> {
  const agent = new Agent({ keepAlive: true, ca: role.ca });
  const throughRelay = (path: string): Promise<void> => new Promise((resolve, reject) => {
    const request = httpsRequest(`${role.relay}${path}`, { agent, headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve();
      });
    });
    request.on('error', reject);
    request.end();
  });
  const straight = async (path: string): Promise<void> => {
    const answer = await fetch(`${role.partner}${path}`, { headers: { accept: 'application/json' } });
    await answer.json();
  };
  const lookup = async (ask: (path: string) => Promise<void>): Promise<number> => {
    const began = performance.now();
    await Promise.all(LOOKUP.map(ask));
    return performance.now() - began;
  };
  const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, role.pauseMs));
  // Each way's connections made and its code warm before anything is timed.
  for (let i = 0; i < 3; i++) {
    await lookup(straight);
    await lookup(throughRelay);
  }
  const direct: number[] = [];
  const relayed: number[] = [];
  for (let i = 0; i < role.lookups; i++) {
    await pause();
    direct.push(await lookup(straight));
    await pause();
    relayed.push(await lookup(throughRelay));
  }
  agent.destroy();
  const ms = (values: number[], q: number): number => Math.round(quantile(values, q) * 100) / 100;
  const figures: RelayHopFigures = {
    lookups: role.lookups,
    directP50Ms: ms(direct, 0.5), directP95Ms: ms(direct, 0.95), relayP50Ms: ms(relayed, 0.5), relayP95Ms: ms(relayed, 0.95),
    floorP95Ratio: Math.round((quantile(relayed, 0.95) / quantile(direct, 0.95)) * 100) / 100,
  };
  process.send?.(figures);
}

/** One line for the bench's report. */
export function describeRelayHop(f: RelayHopFigures): string {
  return `a relay that does no work (HTTPS in, fetch on), ${f.lookups} lookups each way: straight p50 ${f.directP50Ms} ms, p95 ${f.directP95Ms} ms; through it p50 ${f.relayP50Ms} ms, p95 ${f.relayP95Ms} ms: ${f.floorP95Ratio.toFixed(2)}x at p95`;
}

const given = process.argv[2];
if (given?.startsWith('{')) {
  const role = JSON.parse(given) as Role;
  if (role.role === 'partner') runPartner();
  else if (role.role === 'relay') runRelay(role);
  else await runClient(role);
} else if (import.meta.filename === process.argv[1]) {
  const figures = await measureRelayHop(Number(given ?? 60), Number(process.argv[3] ?? 1000));
  console.log(`The floor under relayVsDirectLookupP95 on this machine: ${describeRelayHop(figures)}`);
  console.log(`RELAY-HOP-JSON ${JSON.stringify(figures)}`);
}
