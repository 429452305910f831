// DeskService wired as main wires it, but on plain Node: settings through conf (electron-store's
// base), the log, action log and mirrors in one data folder, the desk's keychain records
// in memory. Used by the Chromium test host, the DeskService tests and the bench, so the three
// run the same assembly. A fresh desk gets the test desk PIN (desk-pin.ts) unless `deskPin:
// 'none'` asks for the first-run state; the action log's key is held in memory unless a keychain
// one is passed.
import { join } from 'node:path';
import Conf from 'conf';
import { ActionLog } from '../../electron/main/action-log/action-log.ts';
import { memoryLogKey, type LogKeySource } from '../../electron/main/action-log/log-key.ts';
import { DESK_RECORDS, memoryDeskRecords, type DeskKeychain } from '../../electron/main/credentials/desk-keychain.ts';
import type { CredentialVault } from '../../electron/main/credentials/index.ts';
import { DeskService, type DeskServiceDeps } from '../../electron/main/desk/desk-service.ts';
import { createFileLogger } from '../../electron/node/logging/logger.ts';
import { inProcessSandbox } from '../../electron/main/connection/sandbox-endpoint.ts';
import { memoryClipboard } from '../../electron/main/desk/clipboard.ts';
import { readSettingsFile, Settings, type SettingsStore } from '../../electron/main/settings/index.ts';
import { TEST_DESK_PIN, TEST_SIGN_IN_RECORD } from './desk-pin.ts';
import { TEST_PIN_COST } from './weak-pin-cost.ts';

export interface NodeDeskOptions extends Partial<Omit<DeskServiceDeps, 'settings' | 'logger' | 'actionLog' | 'vault' | 'keychain' | 'legacySignInFile'>> {
  dir: string;
  vault: CredentialVault;
  /** The desk's records in the keychain; by default the memory ones that go with `vault` (keychainOf). */
  keychain?: DeskKeychain;
  /** The action log's key (the keychain's in the host and the DeskService tests). */
  actionLogKey?: LogKeySource;
  /** `none`: a desk on which no desk PIN was set yet. Only a memory keychain is given the test PIN here (desk-host provisions its own). */
  deskPin?: 'test' | 'none';
}

/** One machine's keychain: the partner passwords (the vault) and the desk's records together, so a test's restart finds both. */
const keychains = new WeakMap<CredentialVault, ReturnType<typeof memoryDeskRecords>>();

export function keychainOf(vault: CredentialVault): ReturnType<typeof memoryDeskRecords> {
  let keychain = keychains.get(vault);
  if (!keychain) {
    keychain = memoryDeskRecords();
    keychains.set(vault, keychain);
  }
  return keychain;
}

export function createNodeDesk(options: NodeDeskOptions): { desk: DeskService; logger: ReturnType<typeof createFileLogger> } {
  const { dir, vault, actionLogKey = memoryLogKey(), deskPin = 'test', keychain: given, ...rest } = options;
  const logger = createFileLogger({ dir: join(dir, 'logs') });
  const store = new Conf({ cwd: dir, configName: 'settings', projectName: 'lending-desk', clearInvalidConfig: false, deserialize: readSettingsFile });
  const keychain = given ?? keychainOf(vault);
  if (deskPin === 'test' && !given && !keychainOf(vault).entries.has(DESK_RECORDS.signIn)) keychainOf(vault).entries.set(DESK_RECORDS.signIn, TEST_SIGN_IN_RECORD);
  const now = rest.now ?? Date.now;
  const desk = new DeskService({
    settings: new Settings(store as unknown as SettingsStore),
    vault,
    keychain,
    fetch: (input, init) => fetch(input, init),
    sandbox: async () => inProcessSandbox(),
    clipboard: memoryClipboard(),
    logger,
    actionLog: new ActionLog({
      path: join(dir, 'action-log.jsonl'), key: actionLogKey, head: keychain, now,
      onChanged: (where) => logger.warn('action-log.changed', { path: join(dir, 'action-log.jsonl'), where }),
    }),
    legacySignInFile: join(dir, 'sign-in.json'),
    now,
    version: '0.0.0-test',
    emit: () => {},
    mirrors: { dir: join(dir, 'catalog') },
    ratePerMinute: 100_000,
    // A desk PIN set in a test costs the least a test may use, so suites that set many stay quick.
    pinCost: TEST_PIN_COST,
    ...rest,
  });
  return { desk, logger };
}

/** A desk on the sandbox `options.sandbox` gives, with a shift open (the test desk PIN): where most DeskService tests start. */
export async function sandboxDeskOnShift(options: NodeDeskOptions): Promise<{ desk: DeskService; closeLog: () => void }> {
  const { desk, logger } = createNodeDesk(options);
  await desk.useSandbox();
  await desk.startShift({ staffName: 'JD', pin: TEST_DESK_PIN });
  return { desk, closeLog: () => logger.close() };
}
