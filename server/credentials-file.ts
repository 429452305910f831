// The partner credential (and the database password, when the URL carries none) come from a
// file only root or the service's own user can read. Read as policy files are read
// (electron/main/policy/trusted-file.ts): opened without following a symbolic link, checked through
// the open descriptor, so what is checked is what is read. The rule differs: the owner may be
// root or the service's user, and nobody else may read it at all (it is a secret, where a policy
// file is public but must not be writable).
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { z } from 'zod';

export interface ServiceCredentials { username: string; password: string; databasePassword?: string }

const MAX_BYTES = 64 * 1024;
/** Any permission for group or others. */
const SHARED = 0o077;

const CredentialsJson = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
  databasePassword: z.string().min(1).optional(),
}).strict();

export class CredentialsFileError extends Error {
  constructor(path: string, why: string) {
    super(`The credentials file ${path} was refused: ${why}`);
    this.name = 'CredentialsFileError';
  }
}

/** `serviceUid`: the service's own user (this process's, in production). */
export function readCredentialsFile(path: string, serviceUid = process.getuid?.() ?? -1): ServiceCredentials {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new CredentialsFileError(path, code === 'ELOOP' ? 'it is a symbolic link.' : `it could not be opened (${code}).`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new CredentialsFileError(path, 'it is not a plain file.');
    if (stats.uid !== 0 && stats.uid !== serviceUid) {
      throw new CredentialsFileError(path, `it belongs to user ${stats.uid}, not root or the service's user (${serviceUid}).`);
    }
    if ((stats.mode & SHARED) !== 0) {
      const mode = (stats.mode & 0o777).toString(8).padStart(4, '0');
      throw new CredentialsFileError(path, `its mode ${mode} lets group or others at it (chmod 0600).`);
    }
    if (stats.size > MAX_BYTES) throw new CredentialsFileError(path, `it is larger than ${MAX_BYTES / 1024} KiB.`);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(fd, 'utf8'));
    } catch {
      throw new CredentialsFileError(path, 'it is not JSON.');
    }
    const parsed = CredentialsJson.safeParse(json);
    // The path only: never the values, which are secrets.
    if (!parsed.success) throw new CredentialsFileError(path, `it needs "username" and "password" (and may have "databasePassword"), nothing else (${parsed.error.issues.map((i) => i.path.join('.') || 'the file').join(', ')}).`);
    return parsed.data;
  } finally {
    closeSync(fd);
  }
}
