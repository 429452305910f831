// A TLS certificate for a test's own HTTPS server (the library server's desk endpoint), for
// 127.0.0.1 and localhost, signed by a test CA (makeCertificateAuthority).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CertificateAuthority } from './postgres-cluster.ts';

function openssl(args: string[], cwd: string): void {
  const run = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`);
}

export async function makeServerCertificate(dir: string, ca: CertificateAuthority, name: string): Promise<{ certFile: string; keyFile: string }> {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  const csr = join(dir, `${name}.csr`);
  const extensions = join(dir, `${name}.ext`);
  writeFileSync(extensions, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', csr, '-subj', '/CN=localhost'], dir);
  openssl(['x509', '-req', '-in', csr, '-CA', ca.certFile, '-CAkey', ca.keyFile, '-CAcreateserial', '-days', '2', '-out', certFile, '-extfile', extensions], dir);
  return { certFile, keyFile };
}
