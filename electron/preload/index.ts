// Exposes domain methods only, never ipcRenderer itself (contextIsolation + sandbox).
import { contextBridge, ipcRenderer } from 'electron';
import { CHANNELS, type LendingDeskBridge } from '../bridge.ts';

const bridge: LendingDeskBridge = {
  connectionInfo: () => ipcRenderer.invoke(CHANNELS.connectionInfo),
  testConnection: () => ipcRenderer.invoke(CHANNELS.testConnection),
};

contextBridge.exposeInMainWorld('lendingDesk', bridge);
