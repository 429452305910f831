// The Electron security checklist as plain functions over the objects Electron hands us, so
// they are unit-tested with stand-ins here (no Electron binary) and used as-is in main.
import { PARTNER_COVER_HOSTS, SANDBOX_HOST } from '../../shared/cover-hosts.ts';
import { httpsHostOf } from '../../shared/text-rules.ts';

/** Hosts whose https pages and covers staff may open or see. The sandbox's are fictional (.invalid). */
export const TITLE_HOSTS: readonly string[] = [SANDBOX_HOST];
/** The sandbox's covers and the partner's cover host (issue #34: its covers were blocked, every row a grey box), over https only. */
export const COVER_HOSTS: readonly string[] = [SANDBOX_HOST, ...PARTNER_COVER_HOSTS];

/** `devTools` is false in a packaged build: no inspector for whoever stands at the desk. */
export function secureWebPreferences(preloadPath: string, options: { devTools: boolean }): Record<string, unknown> {
  return {
    preload: preloadPath,
    devTools: options.devTools,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

/**
 * script-src 'self' and nothing inline; images only from our files and the cover hosts. Sent as
 * a response header by the app:// handler (app-protocol.ts), the one way it reaches the page.
 */
export function contentSecurityPolicy(coverHosts: readonly string[] = COVER_HOSTS): string {
  const covers = coverHosts.map((h) => `https://${h}`).join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: ${covers}`.trim(),
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export function isAllowedExternalUrl(raw: string, hosts: readonly string[] = [...TITLE_HOSTS, ...COVER_HOSTS]): boolean {
  const host = httpsHostOf(raw);
  return host !== undefined && hosts.includes(host);
}

interface NavigationEvent { preventDefault(): void }
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', listener: (event: NavigationEvent, ...args: unknown[]) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}
export interface GuardedSession {
  setPermissionRequestHandler(handler: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void;
}

/**
 * No navigation away from the app, no new windows (allow-listed https title pages open in the
 * system browser instead), no webviews, no permissions.
 */
export function guardContents(
  contents: GuardedContents, session: GuardedSession, openExternal: (url: string) => void, allowed: (url: string) => boolean = (url) => isAllowedExternalUrl(url),
): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (allowed(url)) openExternal(url);
    return { action: 'deny' };
  });
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
