// The command line: one JSON line on stdout with everything needed to connect, exit code 2
// on a bad option, and a clean stop on SIGTERM.

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { basic, raw } from './helpers.ts';

const cli = fileURLToPath(new URL('../../../../electron/main/sandbox/cli.ts', import.meta.url));

function run(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [cli, ...args], { stdio: 'pipe' });
}

/** The first stdout line; fails at once, with stderr, if the process exits before printing. */
async function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, 'exit').then(([code]) => { throw new Error(`cli exited with ${String(code)} before printing: ${stderr}`); });
  try {
    const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string];
    return line;
  } finally {
    exited.catch(() => undefined);
    lines.close();
  }
}

describe('cli', () => {
  it('prints one JSON line to connect with, serves on it, and stops on SIGTERM', async () => {
    const child = run(['--port', '0', '--seed', '7', '--catalog-size', '300', '--token-lifetime', '120', '--password', 'pw']);
    try {
      const info = JSON.parse(await firstLine(child));
      expect(info).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), username: 'desk-sandbox', password: 'pw' });
      expect(info.libraries.length).toBeGreaterThanOrEqual(3);
      for (const library of info.libraries) {
        expect(library).toMatchObject({ libraryId: expect.any(Number), country: expect.any(String) });
        expect(library.cards.length).toBeGreaterThanOrEqual(6);
      }
      const token = await raw(`${info.url}/api/v1/get-token`, { method: 'POST', headers: { authorization: basic('desk-sandbox', 'pw') } });
      expect(token.body).toMatchObject({ expires_in: 120 });
      const page = await raw(`${info.url}/api/v1/global-contents?limit=500`, { headers: { authorization: `Bearer ${(token.body as any).access_token}` } });
      expect((page.body as any).metadata.totalCount).toBe(300);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('exits 2 with a clear message on a bad option value', async () => {
    for (const args of [['--catalog-size', 'abc'], ['--port', '70000'], ['--no-such-option']]) {
      const child = run(args);
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
      const [code] = await once(child, 'exit');
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/^sandbox: /);
    }
  });
});
