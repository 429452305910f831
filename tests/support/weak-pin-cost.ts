// The one way a desk hashes PINs below 2^16: tests pass this to DeskService (node-desk.ts does),
// so suites that set and check many PINs stay quick. Main never passes a cost, and this file is
// not part of any build, so a real desk cannot take this path.
import type { PinCost } from '../../electron/node/pin/pin-hash.ts';

export const TEST_PIN_COST: PinCost = { makeLog2: 14, floorLog2: 14 };
