// How Chromium reaches an https server, as far as the desk's certificate trust can see it, for
// tests without Electron: a real TLS handshake with the server (Node's TLS), verified against the
// certificate store of this PC — the public roots (Node's copy of Mozilla's list stands for the
// ones built into Chromium) plus the roots its user added (a proxy's) — then the request Electron
// hands to setCertificateVerifyProc (hostname, the chain as PEM, verificationResult,
// isIssuedByKnownRoot), and the answer: -2 fails the request with net::ERR_FAILED, -3 keeps
// Chromium's own verdict, 0 accepts. What passes is then fetched over a connection that trusts the
// same store. Plain http goes straight through (the built-in sandbox on loopback).
import { request as httpsRequest } from 'node:https';
import { X509Certificate } from 'node:crypto';
import { checkServerIdentity, connect, rootCertificates, type DetailedPeerCertificate } from 'node:tls';
import type { CertificateLike, VerifyRequest } from '../../../../electron/main/app/certificate-trust.ts';

export type VerifyProc = (request: VerifyRequest, callback: (verdict: number) => void) => void;

const pem = (der: Buffer): string => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
const normalized = (text: string): string => new X509Certificate(text).fingerprint256;
const PUBLIC_ROOTS = new Set(rootCertificates.map(normalized));

/** The chain the server showed, leaf first, as Electron's Certificate objects link it. */
function chainOf(peer: DetailedPeerCertificate): CertificateLike {
  const certificates: string[] = [];
  for (let at: DetailedPeerCertificate | undefined = peer; at?.raw && certificates.length < 16; at = at.issuerCertificate === at ? undefined : at.issuerCertificate) certificates.push(pem(at.raw));
  let chain: CertificateLike | null = null;
  for (const data of certificates.reverse()) chain = { data, issuerCert: chain };
  return chain!;
}

/** The chain up to the root of the store that issued it, as Chromium verified it. */
function validated(shown: CertificateLike, store: readonly string[]): CertificateLike {
  const certificates: string[] = [];
  for (let at: CertificateLike | null | undefined = shown; at; at = at.issuerCert) certificates.push(at.data);
  const last = new X509Certificate(certificates.at(-1)!);
  const root = last.checkIssued(last) ? undefined : store.find((candidate) => last.checkIssued(new X509Certificate(candidate)));
  if (root) certificates.push(root);
  let chain: CertificateLike | null = null;
  for (const data of certificates.reverse()) chain = { data, issuerCert: chain };
  return chain!;
}

async function handshake(url: URL, store: readonly string[]): Promise<VerifyRequest> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const socket = connect({ host, port: Number(url.port || 443), ca: [...store], rejectUnauthorized: false, ...(/^[\d.:]+$/.test(host) ? {} : { servername: host }) });
  await new Promise<void>((resolve, reject) => { socket.once('secureConnect', resolve); socket.once('error', reject); });
  try {
    const peer = socket.getPeerCertificate(true);
    const certificate = chainOf(peer);
    const validatedCertificate = validated(certificate, store);
    let root: CertificateLike = validatedCertificate;
    while (root.issuerCert) root = root.issuerCert;
    const nameProblem = checkServerIdentity(host, peer);
    const verificationResult = !socket.authorized ? 'net::ERR_CERT_AUTHORITY_INVALID' : nameProblem ? 'net::ERR_CERT_COMMON_NAME_INVALID' : 'net::OK';
    return { hostname: host, certificate, validatedCertificate, verificationResult, isIssuedByKnownRoot: PUBLIC_ROOTS.has(normalized(root.data)) };
  } finally {
    socket.destroy();
  }
}

function fetchTrusting(url: URL, init: RequestInit, store: readonly string[]): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const request = httpsRequest(url, { method: init.method ?? 'GET', headers, ca: [...store] }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(new Response(Buffer.concat(chunks), {
        status: response.statusCode ?? 0,
        headers: Object.entries(response.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])),
      })));
      response.on('error', reject);
    });
    request.on('error', reject);
    if (typeof init.body === 'string') request.write(init.body);
    request.end();
  });
}

/**
 * net.fetch as Chromium would run it on a PC whose user trusts `userRoots` besides the public
 * roots, asking `verifyProc()` (what main set, if anything) about every https certificate.
 */
export function chromiumFetch(options: { userRoots: readonly string[]; verifyProc: () => VerifyProc | undefined }): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  const store = [...rootCertificates, ...options.userRoots];
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'https:') return fetch(input, init);
    const request = await handshake(url, store);
    const proc = options.verifyProc();
    const verdict = proc ? await new Promise<number>((resolve) => proc(request, resolve)) : -3;
    if (verdict === -2) throw new TypeError('net::ERR_FAILED');
    if (verdict !== 0 && request.verificationResult !== 'net::OK') throw new TypeError(request.verificationResult);
    return fetchTrusting(url, init, store);
  };
}
