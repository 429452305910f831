// DeskService as main assembles it: settings in electron-store, credentials in the keychain,
// the action log and catalog mirrors in the user data folder, the network through Electron's
// net.fetch (the system proxy and certificate store). The one place that knows DeskService's
// constructor, so a change to its dependencies is made here and nowhere else in main.
import { join } from 'node:path';
import Store from 'electron-store';
import { ActionLog } from '../action-log/action-log.ts';
import { createKeytarVault } from '../credentials/index.ts';
import { DeskService, type DeskServiceDeps } from '../desk/desk-service.ts';
import type { Logger } from '../logging/logger.ts';
import type { LoadedPolicy } from '../policy/index.ts';
import { startSandbox } from '../sandbox/server.ts';
import { readSettingsFile, Settings } from '../settings/index.ts';

export interface DeskAssembly {
  userData: string;
  /** The bundled sync worker (app-files.ts). */
  syncWorker: string;
  /** A keychain service name of its own (a training desk, tests); the default otherwise. */
  keychainService: string | undefined;
  policy: LoadedPolicy;
  logger: Logger;
  fetch: DeskServiceDeps['fetch'];
  emit: DeskServiceDeps['emit'];
  version: string;
}

export function createDesk(parts: DeskAssembly): { desk: DeskService; settings: Settings } {
  const settings = new Settings(new Store({ name: 'settings', clearInvalidConfig: false, deserialize: readSettingsFile }));
  const desk = new DeskService({
    settings,
    policy: parts.policy.policy,
    policyProblem: parts.policy.problem,
    vault: createKeytarVault(parts.keychainService ? { service: parts.keychainService } : {}),
    fetch: parts.fetch,
    startSandbox: () => startSandbox(),
    logger: parts.logger,
    actionLog: new ActionLog(join(parts.userData, 'action-log.jsonl')),
    catalog: { dir: join(parts.userData, 'catalog'), workerUrl: parts.syncWorker },
    now: Date.now,
    version: parts.version,
    emit: parts.emit,
  });
  return { desk, settings };
}
