// The desk's keychain records for the crash-safety run, where the writing child and the reader
// are separate processes and a memory keychain would die with each child: one JSON file per
// record beside the log, written whole to a temporary file and renamed over (as a keychain's
// own write is all or nothing). Test-only: the product keeps these in the OS keychain.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { DeskKeychain, DeskRecord } from '../../../electron/main/credentials/desk-keychain.ts';

export function fileDeskRecords(prefix: string): DeskKeychain {
  const file = (record: DeskRecord): string => `${prefix}.${record.replace(/[^a-z-]/g, '_')}.json`;
  return {
    async read(record) {
      return existsSync(file(record)) ? readFileSync(file(record), 'utf8') : undefined;
    },
    async write(record, text) {
      writeFileSync(`${file(record)}.tmp`, text);
      renameSync(`${file(record)}.tmp`, file(record));
    },
    async remove(record) {
      rmSync(file(record), { force: true });
    },
  };
}
