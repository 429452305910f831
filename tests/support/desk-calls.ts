// A contract method called as the IPC registry calls it (dispatch: its arguments checked against
// the contract), for tests that drive a DeskService: the value, or the refusal thrown with its
// code and message so a failing step says which and why.
import type { DeskService } from '../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../electron/main/ipc/dispatch.ts';
import type { MethodName } from '../../electron/shared/contract.ts';

export async function answerOf<T = any>(desk: DeskService, name: MethodName, args?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const result = await dispatch(desk, name, args);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}
