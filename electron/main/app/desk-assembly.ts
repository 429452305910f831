// DeskService as main assembles it: settings in electron-store, credentials in the keychain,
// the action log in the user data folder, the mirrors where main put them, the network through Electron's
// net.fetch (the system proxy and certificate store), the built-in sandbox in-process, and the
// system clipboard. The one place that knows DeskService's constructor, so a change to its
// dependencies is made here and nowhere else in main.
import { join } from 'node:path';
import Store from 'electron-store';
import { ActionLog } from '../action-log/action-log.ts';
import { keychainLogKey } from '../action-log/log-key.ts';
import { inProcessSandbox } from '../connection/sandbox-endpoint.ts';
import { keychainDeskRecords } from '../credentials/desk-keychain.ts';
import { createKeytarVault } from '../credentials/index.ts';
import type { ClipboardPort } from '../desk/clipboard.ts';
import { DeskService, type DeskServiceDeps } from '../desk/desk-service.ts';
import type { Logger } from '../../node/logging/logger.ts';
import type { MachinePolicy } from '../policy/index.ts';
import { readSettingsFile, Settings } from '../settings/index.ts';

export interface DeskAssembly {
  userData: string;
  /** The mirrors' folder (on Windows in local app data: electron/main/connection/catalog-folder.ts). */
  catalogDir: string;
  /** The bundled mirror worker (app-files.ts): the thread that owns the mirror. */
  mirrorWorker: string;
  /** A keychain service name of its own (tests, development); the default otherwise. */
  keychainService: string | undefined;
  /** The app's own node_modules, where keytar is loaded from by absolute path (app-files.ts). */
  modules: string;
  policy: MachinePolicy;
  logger: Logger;
  fetch: DeskServiceDeps['fetch'];
  clipboard: ClipboardPort;
  emit: DeskServiceDeps['emit'];
  version: string;
  installedForAllUsers: boolean;
}

export function createDesk(parts: DeskAssembly): { desk: DeskService; settings: Settings } {
  const settings = new Settings(new Store({ name: 'settings', clearInvalidConfig: false, deserialize: readSettingsFile }));
  const keychain = { ...(parts.keychainService ? { service: parts.keychainService } : {}), modules: parts.modules };
  const deskRecords = keychainDeskRecords(keychain);
  const desk = new DeskService({
    settings,
    policy: parts.policy.policy,
    policyProblem: parts.policy.problems,
    vault: createKeytarVault(keychain),
    keychain: deskRecords,
    fetch: parts.fetch,
    sandbox: async () => inProcessSandbox(),
    clipboard: parts.clipboard,
    logger: parts.logger,
    actionLog: new ActionLog({
      path: join(parts.userData, 'action-log.jsonl'), key: keychainLogKey(keychain), head: deskRecords,
      onChanged: (where) => parts.logger.warn('action-log.changed', { path: join(parts.userData, 'action-log.jsonl'), where }),
    }),
    // An earlier version's record: found, it only says the desk was set up (it is never read for a PIN).
    legacySignInFile: join(parts.userData, 'sign-in.json'),
    mirrors: { dir: parts.catalogDir, workerUrl: parts.mirrorWorker },
    now: Date.now,
    version: parts.version,
    installedForAllUsers: parts.installedForAllUsers,
    emit: parts.emit,
  });
  return { desk, settings };
}
