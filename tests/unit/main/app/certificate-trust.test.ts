// Whom the desk trusts on the wire (issue #33): a real TLS server on loopback whose certificate a
// test CA signed — a proxy's root, which a desk user added to their own certificate store — reached
// the way Chromium reaches it (chromium-tls.ts), through main's certificate verdict and main's fetch.
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateTrust, CHROMIUM_VERDICT, interceptionAware, normalizedFingerprint, REFUSE, type VerifyRequest } from '../../../../electron/main/app/certificate-trust.ts';
import { en } from '../../../../src/i18n/en.ts';
import { frCA } from '../../../../src/i18n/fr-CA.ts';
import { makeCertificateAuthority, opensslFingerprint, startLoopbackTlsServer, type CertificateAuthority, type LoopbackTlsServer } from '../../../support/certificates.ts';
import { chromiumFetch } from './chromium-tls.ts';

let proxyRoot: CertificateAuthority;
let server: LoopbackTlsServer;
let url: string;

beforeAll(async () => {
  server = await startLoopbackTlsServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ access_token: 'seen-by-whoever-holds-the-root', path: request.url }));
  });
  proxyRoot = server.root;
  url = `${server.origin}/api/v1/get-token`;
});
afterAll(() => server.close());

function desk(inspectionCas: string[]) {
  const warnings: Array<{ event: string; fields?: Record<string, unknown> }> = [];
  const trust = certificateTrust({ inspectionCas, log: { warn: (event, fields) => warnings.push({ event, ...(fields ? { fields } : {}) }) } });
  // This PC's user trusts the proxy's root (imported into their own store, no admin rights needed).
  const netFetch = chromiumFetch({ userRoots: [proxyRoot.cert], verifyProc: () => trust.verify });
  return { trust, warnings, fetch: interceptionAware((input, init) => netFetch(input, init), trust) };
}

describe('a certificate from a root this PC\'s user added (a proxy\'s)', () => {
  it('is refused, whatever the OS store says, and staff are told a proxy or certificate on this PC intercepted the connection, in both languages', async () => {
    const { fetch, warnings } = desk([]);
    const refusal = await fetch(url, { method: 'POST' }).then(() => undefined, (error: unknown) => error);
    expect(refusal).toMatchObject({ code: 'network', detail: { reason: 'connection.intercepted', params: { host: '127.0.0.1' } } });
    expect(en.reasons['connection.intercepted']).toMatch(/a proxy or a certificate installed on this PC intercepted it/);
    expect(frCA.reasons['connection.intercepted']).toMatch(/un proxy ou un certificat installé sur cet ordinateur l’a interceptée/);
    expect(frCA.reasons['connection.intercepted']).toContain('{host}');
    // The log names the root it was shown, for IT.
    expect(warnings).toEqual([{ event: 'tls.intercepted', fields: { host: '127.0.0.1', root: expect.stringContaining(normalizedFingerprint(await opensslFingerprint(proxyRoot.certFile))) } }]);
  });

  it('stays refused while Chromium keeps its verdict and does not ask again', async () => {
    const { fetch, trust } = desk([]);
    await expect(fetch(url, { method: 'GET' })).rejects.toMatchObject({ detail: { reason: 'connection.intercepted' } });
    // A later request whose certificate Chromium does not verify again fails as the first did.
    const cached = interceptionAware(() => Promise.reject(new TypeError('net::ERR_FAILED')), trust);
    await expect(cached(url, {})).rejects.toMatchObject({ detail: { reason: 'connection.intercepted' } });
    // Another host's network failure is only that.
    await expect(cached('https://partner.example.org/api', {})).rejects.toThrow('net::ERR_FAILED');
  });

  it('is accepted when IT\'s policy names it as the library\'s inspection CA (its fingerprint as openssl prints it)', async () => {
    const { fetch, warnings } = desk([await opensslFingerprint(proxyRoot.certFile)]);
    const response = await fetch(url, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ path: '/api/v1/get-token' });
    expect(warnings).toEqual([]);
  });

  it('another CA named in the policy does not make this one acceptable', async () => {
    const other = await makeCertificateAuthority(dirname(proxyRoot.certFile), 'library-ca');
    const { fetch } = desk([await opensslFingerprint(other.certFile)]);
    await expect(fetch(url, {})).rejects.toMatchObject({ detail: { reason: 'connection.intercepted' } });
  });
});

describe('the verdict', () => {
  const request = (overrides: Partial<VerifyRequest>): VerifyRequest => ({
    hostname: 'partner.example.org', certificate: { data: proxyRoot.cert }, verificationResult: 'net::OK', isIssuedByKnownRoot: false, ...overrides,
  });
  const verdictOf = (trust: ReturnType<typeof certificateTrust>, r: VerifyRequest): number => {
    let verdict = Number.NaN;
    trust.verify(r, (v) => { verdict = v; });
    return verdict;
  };

  it('leaves a public root, and every refusal of Chromium\'s own, to Chromium: it only ever refuses more', () => {
    const trust = certificateTrust({ inspectionCas: [], log: { warn: () => {} } });
    expect(verdictOf(trust, request({ isIssuedByKnownRoot: true }))).toBe(CHROMIUM_VERDICT);
    expect(verdictOf(trust, request({ verificationResult: 'net::ERR_CERT_DATE_INVALID' }))).toBe(CHROMIUM_VERDICT);
    expect(verdictOf(trust, request({}))).toBe(REFUSE);
    expect(trust.refused('PARTNER.example.org')).toBe(true);
    // The host shows a public certificate again (the proxy is gone): no longer refused.
    expect(verdictOf(trust, request({ isIssuedByKnownRoot: true }))).toBe(CHROMIUM_VERDICT);
    expect(trust.refused('partner.example.org')).toBe(false);
  });

  it('reads fingerprints as IT writes them: with or without colons, any case', () => {
    expect(normalizedFingerprint('ab:cd:0f')).toBe('ABCD0F');
    expect(normalizedFingerprint(' AB CD 0F ')).toBe('ABCD0F');
  });
});
