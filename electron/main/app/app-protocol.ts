// The renderer's own origin, app://desk. Electron's fuse GrantFileProtocolExtraPrivileges stays
// off, and with it a page from file:// lacks what a module script needs, so the renderer is
// served through protocol.handle by the plain Request → Response function below. It takes its
// file reader as an argument: Electron's fs in main, a real app.asar in the packaging tests, the
// disk in the Chromium test host, which serves every e2e page through it.
import { extname, join, sep } from 'node:path';
import { contentSecurityPolicy } from './security.ts';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://desk`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * For protocol.registerSchemesAsPrivileged, before `ready`. standard: relative URLs, storage and a
 * real origin (the IPC sender check pins it); secure: a secure context, like https; supportFetchAPI
 * and corsEnabled: fetch() and `<script type="module" crossorigin>` work on it (no response carries
 * Access-Control-Allow-Origin, so no other origin can read from it). bypassCSP stays false.
 */
export const PRIVILEGED_SCHEMES = [
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, bypassCSP: false } },
];

/** What the build emits. Anything else, even when present, is not served. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

export function contentTypeOf(path: string): string | undefined {
  return CONTENT_TYPES[extname(path).toLowerCase()];
}

/** The two fields the handler reads; Electron's Request, the DOM's and the test host's all have them. */
export interface RendererRequest { url: string; method: string }

export interface RendererHandlerOptions {
  /** The folder index.html is in (out/renderer, inside app.asar when packaged). */
  root: string;
  /** Reads a whole file; rejects with an error whose `code` is ENOENT (or ENOTDIR, EISDIR) when there is none. */
  readFile: (path: string) => Promise<Uint8Array>;
  /** Told about reads that failed for another reason than a missing file. */
  onError?: (path: string, error: unknown) => void;
}

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * The path inside the renderer folder that a request names, as a list of plain segments, or
 * undefined when it is not ours or tries to leave the folder. Works on the raw URL string: a
 * caller that did not normalise it (the test host passes the request line as sent) must not get
 * `..` past us, and a normalised one never contains it anyway.
 */
export function rendererSegments(rawUrl: string): string[] | undefined {
  if (rawUrl.slice(0, APP_ORIGIN.length + 1).toLowerCase() !== `${APP_ORIGIN}/`) return undefined;
  const path = rawUrl.slice(APP_ORIGIN.length).replace(/[?#].*$/s, '');
  if (path === '/') return ['index.html'];
  const segments: string[] = [];
  for (const raw of path.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    // '' (a doubled slash, or an absolute path after it), '.', '..', and anything a file system
    // could read as a separator, a drive or the end of a name.
    if (segment === '' || segment === '.' || segment === '..' || /[/\\:\0]/.test(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}

function answer(status: number, headers: Record<string, string> = {}, body?: Uint8Array): Response {
  // A copy of exactly the file's bytes: a Node Buffer can be a view into a larger shared pool.
  return new Response(body === undefined ? null : body.slice().buffer, { status, headers });
}

export function createRendererHandler(options: RendererHandlerOptions): (request: RendererRequest) => Promise<Response> {
  const { root, readFile, onError } = options;
  const csp = contentSecurityPolicy();
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, { allow: 'GET, HEAD' });
    const segments = rendererSegments(request.url);
    if (segments === undefined) return answer(404);
    const file = join(root, ...segments);
    // The segments cannot climb; this holds even if that rule ever loosens.
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return answer(404);
    const type = contentTypeOf(file);
    if (type === undefined) return answer(404);
    let body: Uint8Array;
    try {
      body = await readFile(file);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && MISSING.has(code)) return answer(404);
      onError?.(file, error);
      return answer(500);
    }
    const headers = {
      'content-type': type,
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    };
    return answer(200, headers, request.method === 'HEAD' ? undefined : body);
  };
}
