// The window's security settings and guards, with stand-ins for Electron's objects.
import { describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy, guardContents, isAllowedExternalUrl, secureWebPreferences } from '../../../../electron/main/app/security.ts';

describe('window security', () => {
  it('uses the full checklist of web preferences, DevTools only when asked', () => {
    expect(secureWebPreferences('/app/preload.cjs', { devTools: false })).toMatchObject({
      preload: '/app/preload.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true,
      allowRunningInsecureContent: false, webviewTag: false, devTools: false,
    });
    expect(secureWebPreferences('/app/preload.cjs', { devTools: true })).toMatchObject({ devTools: true, sandbox: true });
  });

  it('has a strict Content-Security-Policy: own scripts only, images from cover hosts only', () => {
    const csp = contentSecurityPolicy(['covers.example.org']);
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'https://covers.example.org']);
    expect(csp).not.toMatch(/unsafe-eval|\*/);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
  });

  it('lets the renderer show covers from exactly the partner\'s cover host and the sandbox\'s, over https (issue #34: the partner\'s were blocked)', () => {
    const directives = Object.fromEntries(contentSecurityPolicy().split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'https://sandbox.lending-desk.invalid', 'https://cover.hoopladigital.com']);
  });

  it('opens only allow-listed https title and cover pages outside the app', () => {
    expect(isAllowedExternalUrl('https://sandbox.lending-desk.invalid/titles/5')).toBe(true);
    expect(isAllowedExternalUrl('http://sandbox.lending-desk.invalid/titles/5')).toBe(false);
    expect(isAllowedExternalUrl('https://evil.example/titles/5')).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@sandbox.lending-desk.invalid/')).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
  });

  it('denies navigation, new windows, webviews and permissions', () => {
    const listeners = new Map<string, (event: { preventDefault(): void }) => void>();
    let openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
    let permission: ((wc: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined;
    let check: ((...args: unknown[]) => boolean) | undefined;
    const openExternal = vi.fn();
    guardContents(
      { on: (event, listener) => listeners.set(event, listener), setWindowOpenHandler: (h) => { openHandler = h; } },
      { setPermissionRequestHandler: (h) => { permission = h; }, setPermissionCheckHandler: (h) => { check = h; } },
      openExternal,
    );
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const preventDefault = vi.fn();
      listeners.get(event)!({ preventDefault });
      expect(preventDefault, event).toHaveBeenCalled();
    }
    expect(openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();
    expect(openHandler!({ url: 'https://sandbox.lending-desk.invalid/titles/9' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://sandbox.lending-desk.invalid/titles/9');
    // A title page on a host the service named (the desk's predicate, title-pages.ts) opens too; only https.
    const named = vi.fn();
    let namedHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
    guardContents(
      { on: () => undefined, setWindowOpenHandler: (h) => { namedHandler = h; } },
      { setPermissionRequestHandler: () => undefined, setPermissionCheckHandler: () => undefined },
      named, (url) => url.startsWith('https://titles.partner.example/'),
    );
    expect(namedHandler!({ url: 'https://titles.partner.example/t/9' })).toEqual({ action: 'deny' });
    expect(namedHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(named.mock.calls).toEqual([['https://titles.partner.example/t/9']]);
    const granted = vi.fn();
    permission!({}, 'media', granted);
    expect(granted).toHaveBeenCalledWith(false);
    expect(check!()).toBe(false);
  });
});
