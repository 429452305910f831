// Certificates made by a test with Debian's openssl: a CA of its own and a server certificate it
// signs for 127.0.0.1 and localhost (P-256, valid two days). The library mirror's PostgreSQL
// (postgres-cluster.ts) and the desk's TLS trust (tests/unit/main/app/certificate-trust.test.ts)
// use them.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CertificateAuthority {
  /** The CA's certificate (PEM): what a client trusts. */
  cert: string;
  certFile: string;
  keyFile: string;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  await run('openssl', args, { cwd });
}

/** A CA of its own (P-256, valid two days) in `dir`, named `name`. */
export async function makeCertificateAuthority(dir: string, name: string): Promise<CertificateAuthority> {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  await openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-keyout', keyFile, '-out', certFile, '-subj', `/CN=Lending Desk test CA ${randomBytes(4).toString('hex')}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  return { cert: readFileSync(certFile, 'utf8'), certFile, keyFile };
}

/** A server's key and certificate in `dir`, signed by `ca`, for 127.0.0.1 and localhost. */
export async function makeServerCertificate(dir: string, ca: CertificateAuthority, name = 'server'): Promise<{ certFile: string; keyFile: string }> {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  const csr = join(dir, `${name}.csr`);
  const extensions = join(dir, `${name}.ext`);
  writeFileSync(extensions, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  await openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', csr, '-subj', '/CN=localhost'], dir);
  await openssl(['x509', '-req', '-in', csr, '-CA', ca.certFile, '-CAkey', ca.keyFile, '-CAcreateserial', '-days', '2', '-out', certFile, '-extfile', extensions], dir);
  return { certFile, keyFile };
}

/** A certificate's SHA-256 fingerprint as IT reads it off the file (`openssl x509 -noout -fingerprint -sha256`): AB:CD:… */
export async function opensslFingerprint(certFile: string): Promise<string> {
  const { stdout } = await run('openssl', ['x509', '-noout', '-fingerprint', '-sha256', '-in', certFile]);
  return stdout.trim().replace(/^.*=/, '');
}

/** An https server on 127.0.0.1 whose certificate a CA of its own (`root`) signed: a proxy's, say. */
export interface LoopbackTlsServer {
  root: CertificateAuthority;
  /** https://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

export async function startLoopbackTlsServer(handler: RequestListener): Promise<LoopbackTlsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lending-desk-tls-'));
  const root = await makeCertificateAuthority(dir, 'proxy-root');
  const leaf = await makeServerCertificate(dir, root, 'partner');
  const server = createServer({ cert: readFileSync(leaf.certFile), key: readFileSync(leaf.keyFile) }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    root,
    origin: `https://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
