/// <reference types="vite/client" />
import type { LendingDeskBridge } from '../electron/bridge.ts';

declare global {
  interface Window {
    lendingDesk: LendingDeskBridge;
  }
}
