// What happens to the desk as a whole, published once by whoever decides it, so each store
// that holds something it concerns resets itself: no store keeps another's reset list, and the
// stores depend downward only (stores → gateway → lifecycle).
//
// Who publishes what:
//   deskLocked         the session store (idle timer, Lock button, main's sessionLocked event)
//                      and the gateway (main answered session-locked)
//   shiftEnded         the session store, when a lock ends the shift (main drops the session)
//   connectionChanged  the session store, when another profile is active (or none)
//   libraryChanged     the session store, when staff choose another library
//   patronCleared      the patron panel, when staff clear the patron (button, Esc)
//   patronChanged      the patron store, when another card is looked up
import { defineStore } from 'pinia';
import { onBeforeUnmount } from 'vue';
import type { EventPayloads } from '../electron/shared/contract.ts';

export type LockReason = EventPayloads['sessionLocked']['reason'];

export type LifecycleEvent =
  /** The lock screen shows: every patron trace leaves the screen first. */
  | { type: 'deskLocked'; reason: LockReason }
  /** The staff shift is over: what belonged to it (this shift's recent patrons) goes. */
  | { type: 'shiftEnded' }
  /** Another connection profile is active, or none: its patrons, titles and pages go. */
  | { type: 'connectionChanged'; profileId: string | undefined }
  /** Another library of the connection: cards and catalog differ. */
  | { type: 'libraryChanged'; libraryId: number | undefined }
  /** Staff cleared the patron on screen. */
  | { type: 'patronCleared' }
  /** Another card is being looked up: what was shown or done for the last patron goes. */
  | { type: 'patronChanged'; libraryId: number };

export type LifecycleType = LifecycleEvent['type'];

/** Nothing of this shift's patrons may stay: recent patrons included. */
export const SHIFT_OVER: readonly LifecycleType[] = ['deskLocked', 'shiftEnded', 'connectionChanged'];
/** The library's cards and catalog no longer apply. */
export const LIBRARY_GONE: readonly LifecycleType[] = ['connectionChanged', 'libraryChanged'];
/** The patron on screen is gone, and with it whatever was shown or done for them. */
export const PATRON_GONE: readonly LifecycleType[] = [...SHIFT_OVER, 'libraryChanged', 'patronCleared', 'patronChanged'];

type Listener = (event: LifecycleEvent) => void;

export const useLifecycle = defineStore('lifecycle', () => {
  const listeners = new Map<LifecycleType, Set<Listener>>();

  /** Calls `listener` on each of these events; returns the unsubscribe. */
  function on(types: LifecycleType | readonly LifecycleType[], listener: Listener): () => void {
    const list = typeof types === 'string' ? [types] : types;
    for (const type of list) {
      const set = listeners.get(type) ?? new Set();
      set.add(listener);
      listeners.set(type, set);
    }
    return () => { for (const type of list) listeners.get(type)?.delete(listener); };
  }

  function publish(event: LifecycleEvent): void {
    // A copy: a listener may subscribe or unsubscribe while the event is delivered.
    for (const listener of [...(listeners.get(event.type) ?? [])]) listener(event);
  }

  return { on, publish };
});

/** For components: the subscription ends when the component unmounts. */
export function useLifecycleEvent(types: LifecycleType | readonly LifecycleType[], listener: Listener): void {
  const unsubscribe = useLifecycle().on(types, listener);
  onBeforeUnmount(unsubscribe);
}
