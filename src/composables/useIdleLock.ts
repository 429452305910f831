// Locks a shared desk PC nobody is using, after a visible warning: `warnSeconds` before the
// lock, `secondsLeft` counts down (the shell shows it), and any key, pointer movement, click,
// wheel, touch or focus in the document keeps the session and starts the wait again. Timers are
// setTimeout steps (not a polling interval) so a test clock can fast-forward them; each step
// also reads the clock, so a PC that slept past the deadline locks when it wakes instead of
// showing the patron for another countdown. Main can also lock (the OS locking, a refusal, its
// own idle lock when this page stopped answering): that arrives as `sessionLocked`. While a shift
// is open, activity is also told to main (reportActivity, at most every half minute), whose own
// idle lock holds if this page freezes or crashes.
import { onBeforeUnmount, onMounted, ref, watch, type Ref } from 'vue';
import type { EventPayloads } from '../../electron/shared/contract.ts';
import { useGateway } from '../gateway/gateway.ts';

const ACTIVITY_EVENTS = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart', 'focus'] as const;
/** A moving pointer fires constantly: outside the warning, one restart a second is enough. */
const POINTER_MOVE_EVERY_MS = 1000;
/** How often main hears that someone is using the window: far inside its grace minute. */
const HEARTBEAT_EVERY_MS = 30_000;

export interface IdleLockOptions {
  /** The countdown runs only while this is true (a shift is open). */
  active: Ref<boolean>;
  minutes: Ref<number>;
  /** How long the warning shows before the lock. */
  warnSeconds?: number;
  onIdle: () => void;
  onLockedByMain: (reason: EventPayloads['sessionLocked']['reason']) => void;
}

export function useIdleLock({ active, minutes, warnSeconds = 30, onIdle, onLockedByMain }: IdleLockOptions): { secondsLeft: Ref<number | undefined> } {
  const gateway = useGateway();
  const secondsLeft = ref<number>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;
  let lastRestart = 0;
  let lastHeartbeat = 0;
  /** When the desk locks unless someone uses it (by the clock, not by counting steps). */
  let deadline = 0;

  function stop(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    secondsLeft.value = undefined;
  }

  function restart(): void {
    stop();
    lastRestart = Date.now();
    if (!active.value) return;
    const totalMs = Math.max(1, minutes.value) * 60_000;
    const warnMs = Math.min(warnSeconds * 1000, totalMs);
    deadline = lastRestart + totalMs;
    timer = setTimeout(() => countDown(Math.round(warnMs / 1000)), totalMs - warnMs);
  }

  function countDown(seconds: number): void {
    if (!active.value) return stop();
    const byClock = Math.ceil((deadline - Date.now()) / 1000);
    if (seconds <= 0 || byClock <= 0) {
      stop();
      onIdle();
      return;
    }
    secondsLeft.value = Math.min(seconds, byClock);
    timer = setTimeout(() => countDown(seconds - 1), 1000);
  }

  function onActivity(event: Event): void {
    if (event.type === 'pointermove' && secondsLeft.value === undefined && Date.now() - lastRestart < POINTER_MOVE_EVERY_MS) return;
    restart();
    if (active.value && Date.now() - lastHeartbeat >= HEARTBEAT_EVERY_MS) {
      lastHeartbeat = Date.now();
      void gateway.call('reportActivity');
    }
  }

  onMounted(() => {
    // Capture phase: focus does not bubble, and a handler that stops propagation must not
    // hide activity from the lock.
    for (const name of ACTIVITY_EVENTS) document.addEventListener(name, onActivity, { capture: true, passive: true });
    unsubscribe = gateway.on('sessionLocked', (payload) => onLockedByMain(payload.reason));
    restart();
  });
  watch([active, minutes], restart);
  onBeforeUnmount(() => {
    stop();
    for (const name of ACTIVITY_EVENTS) document.removeEventListener(name, onActivity, { capture: true });
    unsubscribe?.();
  });
  return { secondsLeft };
}
