// DeskService wired as main wires it, but on plain Node: settings through conf (electron-store's
// base), the log, action log, sign-in file and catalog mirrors in one data folder. Used by the
// Chromium test host, the DeskService tests and the bench, so the three run the same assembly.
// A fresh desk gets the test desk PIN (desk-pin.ts) unless `deskPin: 'none'` asks for the
// first-run state; the action log's key is held in memory unless a keychain one is passed.
import { join } from 'node:path';
import Conf from 'conf';
import { ActionLog } from '../../electron/action-log/action-log.ts';
import { memoryLogKey, type LogKeySource } from '../../electron/action-log/log-key.ts';
import type { CredentialVault } from '../../electron/credentials/index.ts';
import { DeskService, type DeskServiceDeps } from '../../electron/desk/desk-service.ts';
import { createFileLogger } from '../../electron/logging/logger.ts';
import { inProcessSandbox } from '../../electron/connection/sandbox-endpoint.ts';
import { memoryClipboard } from '../../electron/desk/clipboard.ts';
import { MIN_COST_LOG2 } from '../../electron/desk/pin-hash.ts';
import { readSettingsFile, Settings, type SettingsStore } from '../../electron/settings/index.ts';
import { provisionDeskPin } from './desk-pin.ts';

export interface NodeDeskOptions extends Partial<Omit<DeskServiceDeps, 'settings' | 'logger' | 'actionLog' | 'vault' | 'signInFile'>> {
  dir: string;
  vault: CredentialVault;
  /** The action log's key (the keychain's in the host and the DeskService tests). */
  actionLogKey?: LogKeySource;
  /** `none`: a desk on which no desk PIN was set yet. */
  deskPin?: 'test' | 'none';
}

export function createNodeDesk(options: NodeDeskOptions): { desk: DeskService; logger: ReturnType<typeof createFileLogger> } {
  const { dir, vault, actionLogKey = memoryLogKey(), deskPin = 'test', ...rest } = options;
  const logger = createFileLogger({ dir: join(dir, 'logs') });
  const store = new Conf({ cwd: dir, configName: 'settings', projectName: 'lending-desk', clearInvalidConfig: false, deserialize: readSettingsFile });
  const signInFile = join(dir, 'sign-in.json');
  if (deskPin === 'test') provisionDeskPin(signInFile);
  const now = rest.now ?? Date.now;
  const desk = new DeskService({
    settings: new Settings(store as unknown as SettingsStore),
    vault,
    fetch: (input, init) => fetch(input, init),
    sandbox: async () => inProcessSandbox(),
    clipboard: memoryClipboard(),
    logger,
    actionLog: new ActionLog({ path: join(dir, 'action-log.jsonl'), key: actionLogKey, now }),
    signInFile,
    now,
    version: '0.0.0-test',
    emit: () => {},
    mirrors: { dir: join(dir, 'catalog') },
    ratePerMinute: 100_000,
    // A desk PIN set in a test costs the least the desk accepts, so suites that set many stay quick.
    deskPinCostLog2: MIN_COST_LOG2,
    ...rest,
  });
  return { desk, logger };
}
