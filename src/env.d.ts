/// <reference types="vite/client" />
import type { LendingDeskApi } from '../electron/shared/contract.ts';

declare global {
  interface Window {
    lendingDesk: LendingDeskApi;
  }
}
