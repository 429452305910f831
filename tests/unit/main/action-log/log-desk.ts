// One desk PC for the action-log tests: a data folder, a keychain (partner passwords and the
// desk's records) and the log's key that outlive each start of the desk, the built-in sandbox,
// and a clock the test moves. `start` is the next start of the app on all of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryLogKey } from '../../../../electron/main/action-log/log-key.ts';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createMemoryVault, type CredentialVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { answerOf } from '../../../support/desk-calls.ts';
import type { Policy } from '../../../../electron/main/policy/index.ts';
import { createSandboxService, type SandboxService } from '../../../../electron/main/sandbox/server.ts';
import type { MethodName } from '../../../../electron/shared/contract.ts';
import { createClock, type Clock } from '../../../support/clock.ts';
import { createNodeDesk } from '../../../support/node-desk.ts';

export interface LogDesk {
  dir: string;
  key: Buffer;
  vault: CredentialVault;
  clock: Clock;
  readonly desk: DeskService;
  /** The built-in sandbox the desk talks to (its faults, its request log), once the desk has used it. */
  readonly sandbox: SandboxService;
  start(policy?: Policy): Promise<DeskService>;
  ok<T = any>(name: MethodName, args?: unknown): Promise<T>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

/**
 * These tests are about the log itself: IT lets the desk PIN's shift read it by card and export it
 * (a one-person desk), and lists "JD" as a name to choose. Who may read it is action-log-roles.test.ts's.
 */
const LOG_READER: Policy = { version: 1, deskPinRole: 'manager', deskPinNames: ['JD'] };

export function logDesk(prefix: string, clock: Clock = createClock()): LogDesk {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const key = randomBytes(32);
  const vault = createMemoryVault();
  let current: DeskService | undefined;
  let closeLog: (() => void) | undefined;
  let sandbox: SandboxService | undefined;
  const self: LogDesk = {
    dir, key, vault, clock,
    get desk() {
      if (!current) throw new Error('the desk has not started');
      return current;
    },
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox has not started');
      return sandbox;
    },
    async start(policy) {
      await current?.close();
      closeLog?.();
      const created = createNodeDesk({
        dir, vault, now: clock.now, actionLogKey: memoryLogKey(key), policy: { ...LOG_READER, ...policy },
        sandbox: async () => inProcessSandbox((sandbox ??= createSandboxService({ catalogSize: 300 }))),
        clientOptions: { sleep: async () => {}, timeoutMs: 3000 },
      });
      closeLog = () => created.logger.close();
      current = created.desk;
      return current;
    },
    async ok(name, args) {
      return answerOf<never>(self.desk, name, args);
    },
    async close() {
      await current?.close();
      closeLog?.();
      current = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return self;
}
