// The desk's link to its library server over real TLS (a test CA), against a stand-in that answers
// as the server does: a call the server refused as too long a wait (429 busy, not done) is told
// to staff with its wait, as the client waits it out before sending again; and a kept-alive
// connection carrying many calls collects nothing per call.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryServerLink } from '../../../../electron/main/connection/library-server-fetch.ts';
import { makeCertificateAuthority, makeServerCertificate, type CertificateAuthority } from '../../../support/certificates.ts';

let dir: string;
let ca: CertificateAuthority;
let server: Server;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'library-server-fetch-'));
  ca = await makeCertificateAuthority(dir, 'server-ca');
  const cert = await makeServerCertificate(dir, ca, 'stand-in');
  server = createServer({ key: readFileSync(cert.keyFile), cert: readFileSync(cert.certFile) }, (req, res) => {
    if (req.url === '/api/v1/busy') {
      const body = JSON.stringify({ message: 'The lending service\'s limit is reached: this call would wait about 12 seconds.', reason: 'busy' });
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '12', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
    res.end('{}');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('the link to the library server', () => {
  it('tells staff the wait of a call the server refused as too long a wait, and hands the client its Retry-After', async () => {
    const link = new LibraryServerLink({ urls: [url], ca: ca.cert });
    const waits: number[] = [];
    const answer = await link.fetchWith((seconds) => waits.push(seconds))(`${url}/api/v1/busy`, { method: 'POST', headers: {} });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('12');
    expect(waits).toEqual([12]);
    link.close();
  });

  it('leaves nothing behind on a kept-alive connection, however many calls it carries', async () => {
    const link = new LibraryServerLink({ urls: [url], ca: ca.cert });
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => { warnings.push(warning.name); };
    process.on('warning', onWarning);
    try {
      const fetch = link.fetchWith();
      for (let i = 0; i < 30; i++) expect((await fetch(`${url}/api/v1/hello`, { method: 'GET', headers: {} })).status).toBe(200);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
      link.close();
    }
  });
});
