// Every store that holds patron data is listed here, so a lock, a new shift or a change of
// connection clears all of them. The catalog holds no patron data: a lock leaves the search
// on screen, a change of library or connection clears it (clearLibraryData).
import { useLiveSearchStore } from './live-search.ts';
import { useCirculationStore } from './circulation.ts';
import { usePatronStore } from './patron.ts';

/** Lock, new shift, new connection: all patron data, this shift's recent patrons included. */
export function clearPatronData(): void {
  usePatronStore().$reset();
  useCirculationStore().$reset();
}

/** Clear patron (button, Esc): the patron on screen and what was done for them. */
export function clearCurrentPatron(): void {
  usePatronStore().clear();
  useCirculationStore().$reset();
}

/** Another library: its cards and catalog differ. */
export function clearLibraryData(): void {
  clearCurrentPatron();
  useLiveSearchStore().$reset();
}
