// The desk PIN every test desk starts with (so a shift is one startShift away), kept as the
// desk keeps it: only its scrypt hash, in the sign-in record of the desk's keychain (made once
// with the test-only cost, tests/support/weak-pin-cost.ts, so the suites stay quick).
import { DESK_RECORDS, type DeskKeychain } from '../../electron/main/credentials/desk-keychain.ts';

export const TEST_DESK_PIN = '246813';
export const TEST_DESK_PIN_HASH = '$scrypt$ln=14,r=8,p=1$AxNvAW5+SK4jCk4/YEUXWQ$bPcYUZUPBu4cbDI26Tj4tf6gNib4eclhYFKzNeaodsA';

/** The sign-in record of a desk set up with the test PIN and no shift yet. */
export const TEST_SIGN_IN_RECORD = JSON.stringify({ v: 1, deskPin: TEST_DESK_PIN_HASH, failures: 0, shifts: 0 });

/** Gives a fresh desk the test PIN (a desk that already has a sign-in record keeps its own). */
export async function provisionDeskPin(keychain: DeskKeychain): Promise<void> {
  if ((await keychain.read(DESK_RECORDS.signIn)) === undefined) await keychain.write(DESK_RECORDS.signIn, TEST_SIGN_IN_RECORD);
}
