// The sandboxed preload: exposes the contract's methods as window.lendingDesk and nothing
// else — never ipcRenderer itself. Bundled into one CommonJS file (sandbox: true).
import { contextBridge, ipcRenderer } from 'electron';
import { channelOf } from '../shared/contract.ts';
import { createBridge } from './bridge.ts';

const bridge = createBridge(
  (method, args, call) => (call === undefined ? ipcRenderer.invoke(channelOf(method), args) : ipcRenderer.invoke(channelOf(method), args, call)),
  (event, listener) => {
    const wrapped = (_event: unknown, payload: unknown): void => listener(payload);
    ipcRenderer.on(channelOf(event), wrapped);
    return () => { ipcRenderer.removeListener(channelOf(event), wrapped); };
  },
);

contextBridge.exposeInMainWorld('lendingDesk', bridge);
