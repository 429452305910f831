// The app:// handler as a plain Request → Response function, over a real folder with a secret
// file beside it: every way out of the folder is refused, types are right, the CSP is a header.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_ORIGIN, createRendererHandler, PRIVILEGED_SCHEMES, rendererSegments } from '../../../../electron/main/app/app-protocol.ts';
import { contentSecurityPolicy } from '../../../../electron/main/app/security.ts';

const SECRET = 'partner-password-do-not-serve';
// Made at collection time: the traversal table below names the real secret's path.
const base = mkdtempSync(join(tmpdir(), 'lending-desk-protocol-'));
const root = join(base, 'renderer');

beforeAll(() => {
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(base, 'secret.js'), SECRET);
  writeFileSync(join(base, 'secret.html'), SECRET);
  writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="./assets/app.js"></script>');
  for (const [name, body] of Object.entries({
    'app.js': 'export {}', 'app.css': 'body{}', 'logo.svg': '<svg/>', 'logo.png': 'png', 'font.woff2': 'woff2', 'data.json': '{}', 'tool.exe': 'MZ',
  })) writeFileSync(join(root, 'assets', name), body);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function handler(readFileFn = (file: string) => readFile(file), onError = vi.fn()) {
  return createRendererHandler({ root, readFile: readFileFn, onError });
}

/** A request whose URL is passed on exactly as written (no URL parser in between). */
const raw = (url: string, method = 'GET') => ({ url, method });

describe('the scheme', () => {
  it('is registered standard, secure and fetchable, without bypassing the CSP', () => {
    expect(PRIVILEGED_SCHEMES).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, supportFetchAPI: true }) }]);
    expect(PRIVILEGED_SCHEMES[0]!.privileges.bypassCSP).toBe(false);
    expect(APP_ORIGIN).toBe('app://desk');
  });
});

describe('serving the renderer', () => {
  it('serves index.html for / and by name, with the CSP as a header', async () => {
    for (const url of [`${APP_ORIGIN}/`, `${APP_ORIGIN}/index.html`, `${APP_ORIGIN}/index.html?lang=fr#top`]) {
      const response = await handler()(raw(url));
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('assets/app.js');
    }
  });

  it('gives each file the type the browser needs (a module script must be JavaScript)', async () => {
    const expected: Record<string, string> = {
      'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8', 'logo.svg': 'image/svg+xml',
      'logo.png': 'image/png', 'font.woff2': 'font/woff2', 'data.json': 'application/json',
    };
    for (const [name, type] of Object.entries(expected)) {
      const response = await handler()(new Request(`${APP_ORIGIN}/assets/${name}`));
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toBe(type);
      expect(response.headers.get('content-security-policy'), name).toBe(contentSecurityPolicy());
    }
  });

  it('answers 404 for unknown paths, folders, and files of a type the build never makes', async () => {
    for (const path of ['/missing.js', '/assets', '/assets/', '/assets/tool.exe', '/assets/nope/app.js', '/index.html/x']) {
      const response = await handler()(raw(`${APP_ORIGIN}${path}`));
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe('');
    }
  });

  it('answers only GET and HEAD; HEAD without a body', async () => {
    const head = await handler()(raw(`${APP_ORIGIN}/index.html`, 'HEAD'));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await head.text()).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await handler()(raw(`${APP_ORIGIN}/index.html`, method));
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('serves only its own origin', async () => {
    for (const url of ['app://other/index.html', 'app://desk.evil/index.html', 'app://deskx/index.html', 'https://desk/index.html', 'file:///index.html', `${APP_ORIGIN}`]) {
      expect((await handler()(raw(url))).status, url).toBe(404);
    }
  });

  it('reports a read that failed for another reason as 500, without its details', async () => {
    const onError = vi.fn();
    const failing = handler(async () => { throw Object.assign(new Error(`EACCES at ${base}`), { code: 'EACCES' }); }, onError);
    const response = await failing(raw(`${APP_ORIGIN}/index.html`));
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('');
    expect(onError).toHaveBeenCalledWith(join(root, 'index.html'), expect.objectContaining({ code: 'EACCES' }));
  });
});

describe('an attacker asking for files outside the renderer folder', () => {
  const TRAVERSALS = [
    '/../secret.js',
    '/assets/../../secret.js',
    '/%2e%2e/secret.js',
    '/%2E%2E/secret.html',
    '/.%2e/secret.js',
    '/assets/..%2f..%2fsecret.js',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.js',
    '/..%5csecret.js',
    '/..\\secret.js',
    '/assets\\..\\..\\secret.js',
    '/%5c..%5csecret.js',
    '//secret.js',
    `/${base}/secret.js`,
    `/${encodeURIComponent(join(base, 'secret.js'))}`,
    '/%2fetc%2fpasswd',
    '/C:/Windows/win.ini',
    '/C%3a%5cWindows%5cwin.ini',
    '/\\\\server\\share\\secret.js',
    '/index.html%00.png',
    '/./index.html',
    '/%',
    '/%E0%A4%A',
  ];

  it.each(TRAVERSALS)('refuses %s', async (path) => {
    const reads: string[] = [];
    const response = await handler(async (file) => { reads.push(file); return readFile(file); })(raw(`${APP_ORIGIN}${path}`));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(SECRET);
    expect(reads).toEqual([]); // refused before anything is read
  });

  it('never reads outside the folder when the URL went through a URL parser first (as Electron\'s does)', async () => {
    const reads: string[] = [];
    const serve = handler(async (file) => { reads.push(file); return readFile(file); });
    for (const path of ['/../secret.js', '/%2e%2e/secret.js', '/assets/%2E%2E/%2e%2e/secret.html']) {
      const response = await serve(new Request(`${APP_ORIGIN}${path}`));
      expect(await response.text(), path).not.toContain(SECRET);
    }
    for (const file of reads) expect(file.startsWith(join(root, '/'))).toBe(true);
  });

  it('reads segments literally: a double-encoded dot-dot is a strange file name, not a way up', () => {
    expect(rendererSegments(`${APP_ORIGIN}/%252e%252e/secret.js`)).toEqual(['%2e%2e', 'secret.js']);
    expect(rendererSegments(`${APP_ORIGIN}/assets/a%20b.js`)).toEqual(['assets', 'a b.js']);
    expect(rendererSegments(`${APP_ORIGIN}/assets/%2e%2e`)).toBeUndefined();
  });
});
