// Locks a shared desk PC nobody is using. Any key, pointer, wheel or focus in the document
// restarts the countdown. setTimeout (not a polling interval) so a test clock can fast-forward
// it. Main can also lock (its own timer, the OS locking): that arrives as `sessionLocked`.
import { onBeforeUnmount, onMounted, watch, type Ref } from 'vue';
import type { EventPayloads } from '../../electron/shared/contract.ts';
import { useGateway } from '../gateway/gateway.ts';

const ACTIVITY_EVENTS = ['keydown', 'pointerdown', 'wheel', 'focus'] as const;

export interface IdleLockOptions {
  /** The countdown runs only while this is true (a shift is open). */
  active: Ref<boolean>;
  minutes: Ref<number>;
  onIdle: () => void;
  onLockedByMain: (reason: EventPayloads['sessionLocked']['reason']) => void;
}

export function useIdleLock({ active, minutes, onIdle, onLockedByMain }: IdleLockOptions): void {
  const gateway = useGateway();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;

  function stop(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  }

  function restart(): void {
    stop();
    if (!active.value) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (active.value) onIdle();
    }, Math.max(1, minutes.value) * 60_000);
  }

  onMounted(() => {
    // Capture phase: focus does not bubble, and a handler that stops propagation must not
    // hide activity from the lock.
    for (const name of ACTIVITY_EVENTS) document.addEventListener(name, restart, { capture: true, passive: true });
    unsubscribe = gateway.on('sessionLocked', (payload) => onLockedByMain(payload.reason));
    restart();
  });
  watch([active, minutes], restart);
  onBeforeUnmount(() => {
    stop();
    for (const name of ACTIVITY_EVENTS) document.removeEventListener(name, restart, { capture: true });
    unsubscribe?.();
  });
}
