// Whom the desk trusts on the wire (issue #33). Every request goes through Electron's net.fetch,
// which follows the operating system's proxy settings and certificate store: IT sets proxies
// there, so the desk keeps following them. But a desk user can add a root certificate to their
// own store and name a proxy of their own, two settings in Windows' GUI, and then read the
// partner password, the token and every card. So a server certificate that does not chain to a
// public root (Chromium's `isIssuedByKnownRoot`: its root is one of the public roots built into
// Chromium, not one someone added) is refused, unless IT's policy names the library's own
// inspection CA (`tlsInspectionCa`: the SHA-256 fingerprints of the CAs a library's TLS-inspecting
// proxy, or its own server, signs with). Chromium's own verdict (expired, wrong name, untrusted)
// stands in every case: this only ever refuses more.
//
// The verdict is Electron's setCertificateVerifyProc (installed by main before any request); what
// staff see comes from the fetch that failed: main's fetch (interceptionAware) turns a request
// refused here into "a proxy or certificate on this PC intercepted the connection", in the
// desk's language. Plain functions over the objects Electron hands over, so Vitest runs them.
import { X509Certificate } from 'node:crypto';
import { DeskError } from '../../shared/desk-error.ts';

/** The part of Electron's Certificate this reads. */
export interface CertificateLike {
  /** PEM. */
  data: string;
  issuerCert?: CertificateLike | null;
}

/** The part of Electron's setCertificateVerifyProc request this reads. */
export interface VerifyRequest {
  hostname: string;
  certificate: CertificateLike;
  /** The chain as Chromium verified it, up to the root it trusted. */
  validatedCertificate?: CertificateLike | null;
  /** `net::OK` when the OS's store (and Chromium) trust it. */
  verificationResult: string;
  isIssuedByKnownRoot: boolean;
}

/** setCertificateVerifyProc's answers: accept (0) is never given here; refuse (-2); Chromium's own verdict (-3). */
export const REFUSE = -2;
export const CHROMIUM_VERDICT = -3;

export interface TrustLog {
  warn(event: string, fields?: Record<string, unknown>): void;
}

export interface CertificateTrust {
  /** For session.setCertificateVerifyProc. */
  verify(request: VerifyRequest, callback: (verdict: number) => void): void;
  /** Whether the last certificate this host showed was refused here (Chromium keeps a verdict for a while and does not ask again). */
  refused(host: string): boolean;
}

/** A fingerprint as IT writes it (AB:CD:…, or without colons, any case), as 64 upper-case hex digits. */
export function normalizedFingerprint(text: string): string {
  return text.replace(/[^0-9a-f]/gi, '').toUpperCase();
}

/** Every certificate of a chain, leaf first (a chain of one when there is no issuer). */
function chainOf(certificate: CertificateLike | null | undefined): CertificateLike[] {
  const chain: CertificateLike[] = [];
  for (let at = certificate; at && chain.length < 16; at = at.issuerCert) chain.push(at);
  return chain;
}

function fingerprintOf(certificate: CertificateLike): { sha256: string; subject: string } | undefined {
  try {
    const x509 = new X509Certificate(certificate.data);
    return { sha256: normalizedFingerprint(x509.fingerprint256), subject: x509.subject.replace(/\n/g, ', ') };
  } catch {
    return undefined;
  }
}

export function certificateTrust(options: { inspectionCas: readonly string[]; log: TrustLog }): CertificateTrust {
  const named = new Set(options.inspectionCas.map(normalizedFingerprint));
  /** Hosts whose last certificate was refused, and the root it named (told to the log once each). */
  const refusedHosts = new Map<string, string>();
  return {
    verify(request, callback) {
      const host = request.hostname.toLowerCase();
      if (request.verificationResult !== 'net::OK' || request.isIssuedByKnownRoot) {
        refusedHosts.delete(host);
        callback(CHROMIUM_VERDICT);
        return;
      }
      const chain = [...chainOf(request.certificate), ...chainOf(request.validatedCertificate)].map(fingerprintOf);
      if (chain.some((certificate) => certificate !== undefined && named.has(certificate.sha256))) {
        refusedHosts.delete(host);
        callback(CHROMIUM_VERDICT);
        return;
      }
      const root = chain.filter((certificate) => certificate !== undefined).at(-1);
      const issuer = root ? `${root.subject} (SHA-256 ${root.sha256})` : 'unreadable';
      if (refusedHosts.get(host) !== issuer) options.log.warn('tls.intercepted', { host, root: issuer });
      refusedHosts.set(host, issuer);
      callback(REFUSE);
    },
    refused: (host) => refusedHosts.has(host.toLowerCase()),
  };
}

/** A URL's host as Chromium names it to the verify proc (an IPv6 address without its brackets). */
function hostOf(input: string): string | undefined {
  try {
    return new URL(input).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return undefined;
  }
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Main's fetch: a request whose certificate was refused here fails with the reason staff read, not as a network error. */
export function interceptionAware(fetch: FetchLike, trust: Pick<CertificateTrust, 'refused'>): FetchLike {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      const host = hostOf(input);
      if (host !== undefined && new URL(input).protocol === 'https:' && trust.refused(host)) {
        throw DeskError.because('network', 'connection.intercepted', { host });
      }
      throw error;
    }
  };
}
