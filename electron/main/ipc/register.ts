// Registers exactly the contract's methods with Electron's ipcMain, each behind a sender
// check made before any work. Takes ipcMain as an argument so it is unit-tested here without
// Electron (DESIGN.md, Tests).

import { METHOD_NAMES, channelOf, type DeskHandlers } from '../../shared/contract.ts';
import { dispatch, type DispatchLog } from './dispatch.ts';

export interface SenderFrame { url: string }
export interface InvokeEvent { senderFrame: SenderFrame | null; sender: unknown }
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export type SenderCheck = (event: InvokeEvent) => boolean;

const REFUSED = { ok: false, error: { code: 'invalid-input', message: 'Refused: the request did not come from Lending Desk.' } } as const;

export function registerContract(ipcMain: IpcMainLike, handlers: DeskHandlers, isTrusted: SenderCheck, log?: DispatchLog): () => void {
  for (const name of METHOD_NAMES) {
    ipcMain.handle(channelOf(name), async (event, ...args) => {
      if (!isTrusted(event)) {
        log?.error('ipc.refused-sender', { method: name, frame: event.senderFrame?.url ?? null });
        return REFUSED;
      }
      return dispatch(handlers, name, args[0], log, args[1]);
    });
  }
  return () => { for (const name of METHOD_NAMES) ipcMain.removeHandler(channelOf(name)); };
}

/**
 * Our window's frames only, loaded from the app's own origin (app://desk, or the dev server's); a
 * null frame (gone or navigated) is refused. Scheme and host are compared rather than URL#origin,
 * which is "null" for a custom scheme such as app:.
 */
export function senderCheck(isOurWebContents: (sender: unknown) => boolean, appOrigins: readonly string[]): SenderCheck {
  return (event) => {
    const frame = event.senderFrame;
    if (frame === null || !isOurWebContents(event.sender)) return false;
    try {
      const url = new URL(frame.url);
      return appOrigins.includes(`${url.protocol}//${url.host}`);
    } catch {
      return false;
    }
  };
}
