// Every store that holds patron data is listed here, so a lock, a new shift or a change of
// connection clears all of them. Add the next patron store (catalog actions…) to this list.
import { usePatronStore } from './patron.ts';

export function clearPatronData(): void {
  usePatronStore().$reset();
}
