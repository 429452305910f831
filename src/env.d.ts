/// <reference types="vite/client" />
import type { LendingDeskApi } from '../electron/contract.ts';

declare global {
  interface Window {
    lendingDesk: LendingDeskApi;
  }
}
