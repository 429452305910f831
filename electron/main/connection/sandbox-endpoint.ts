// The built-in sandbox as a connection reaches it. In the product it runs in this process and
// answers through its own fetch function: no socket, nothing another process or a web page on
// the desk PC could reach. Tests and benches may hand a sandbox on loopback HTTP instead, so
// that they can watch and steer it from outside.
import type { FetchFn } from '../../node/partner/transport.ts';
import { createSandboxService, IN_PROCESS_ORIGIN, type SandboxHandle, type SandboxLibrary, type SandboxService } from '../sandbox/server.ts';

export interface SandboxEndpoint {
  baseUrl: string;
  /** Present for the in-process sandbox: requests never touch the network. */
  fetch?: FetchFn;
  username: string;
  password: string;
  libraries: SandboxLibrary[];
  /** Called when its connection closes (a partner profile became active, or the desk quits). */
  close(): Promise<void>;
}

export function inProcessSandbox(service: SandboxService = createSandboxService()): SandboxEndpoint {
  return {
    baseUrl: IN_PROCESS_ORIGIN,
    fetch: service.fetch,
    username: service.username,
    password: service.password,
    libraries: service.libraries,
    close: async () => service.close(),
  };
}

/** A sandbox on loopback HTTP; `close` decides whether the connection's end stops it (tests keep theirs). */
export function sandboxOverHttp(handle: SandboxHandle, close: () => Promise<void> = () => handle.close()): SandboxEndpoint {
  return { baseUrl: handle.url, username: handle.username, password: handle.password, libraries: handle.libraries, close };
}
