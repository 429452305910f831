// The desk PIN every test desk starts with (so a shift is one startShift away), kept as the
// desk keeps it: only its scrypt hash is written, made once with `scripts/pin-hash.ts` at the
// lowest cost the desk accepts so the suites stay quick.
import { existsSync } from 'node:fs';
import { SignInFile } from '../../electron/desk/sign-in-file.ts';

export const TEST_DESK_PIN = '246813';
export const TEST_DESK_PIN_HASH = '$scrypt$ln=14,r=8,p=1$AxNvAW5+SK4jCk4/YEUXWQ$bPcYUZUPBu4cbDI26Tj4tf6gNib4eclhYFKzNeaodsA';

/** Gives a fresh desk the test PIN (a desk that already has a sign-in file keeps its own). */
export function provisionDeskPin(path: string): void {
  if (!existsSync(path)) new SignInFile(path).write({ deskPin: TEST_DESK_PIN_HASH, failures: 0 });
}
