// The repository's root, for tests that read or run a file by its path from there.
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
