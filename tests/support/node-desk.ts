// DeskService wired as main wires it, but on plain Node: settings through conf (electron-store's
// base), the log, action log and catalog mirrors in one data folder. Used by the Chromium
// test host, the DeskService tests and the bench, so the three run the same assembly.
import { join } from 'node:path';
import Conf from 'conf';
import { ActionLog } from '../../electron/action-log/action-log.ts';
import type { CredentialVault } from '../../electron/credentials/index.ts';
import { DeskService, type DeskServiceDeps } from '../../electron/desk/desk-service.ts';
import { createFileLogger } from '../../electron/logging/logger.ts';
import { inProcessSandbox } from '../../electron/connection/sandbox-endpoint.ts';
import { memoryClipboard } from '../../electron/desk/clipboard.ts';
import { readSettingsFile, Settings, type SettingsStore } from '../../electron/settings/index.ts';

export interface NodeDeskOptions extends Partial<Omit<DeskServiceDeps, 'settings' | 'logger' | 'actionLog' | 'vault'>> {
  dir: string;
  vault: CredentialVault;
}

export function createNodeDesk(options: NodeDeskOptions): { desk: DeskService; logger: ReturnType<typeof createFileLogger> } {
  const { dir, vault, ...rest } = options;
  const logger = createFileLogger({ dir: join(dir, 'logs') });
  const store = new Conf({ cwd: dir, configName: 'settings', projectName: 'lending-desk', clearInvalidConfig: false, deserialize: readSettingsFile });
  const desk = new DeskService({
    settings: new Settings(store as unknown as SettingsStore),
    vault,
    fetch: (input, init) => fetch(input, init),
    sandbox: async () => inProcessSandbox(),
    clipboard: memoryClipboard(),
    logger,
    actionLog: new ActionLog(join(dir, 'action-log.jsonl')),
    now: Date.now,
    version: '0.0.0-test',
    emit: () => {},
    mirrors: { dir: join(dir, 'catalog') },
    ratePerMinute: 100_000,
    ...rest,
  });
  return { desk, logger };
}
