// Debugging switches a packaged app refuses, in every form Chromium or Node would accept.
import { describe, expect, it } from 'vitest';
import { refusedStartFlags } from '../../../electron/main/start-flags.ts';

const none = () => false;

describe('refused start flags', () => {
  it.each([
    ['--remote-debugging-port=9222', '--remote-debugging-port'],
    ['--remote-debugging-port', '--remote-debugging-port'],
    ['--remote-debugging-pipe', '--remote-debugging-pipe'],
    ['--remote-debugging-address=0.0.0.0', '--remote-debugging-address'],
    ['--inspect', '--inspect'],
    ['--inspect=0.0.0.0:9229', '--inspect'],
    ['--inspect-brk', '--inspect-brk'],
    ['--inspect-brk=9229', '--inspect-brk'],
    ['--inspect-port=9229', '--inspect-port'],
    ['--inspect-wait', '--inspect-wait'],
    ['--inspect-publish-uid=http', '--inspect-publish-uid'],
    ['--js-flags=--allow-natives-syntax', '--js-flags'],
    ['-remote-debugging-port=9222', '--remote-debugging-port'],
    ['-inspect', '--inspect'],
    ['--REMOTE-DEBUGGING-PORT=9222', '--remote-debugging-port'],
  ])('refuses %s', (arg, name) => {
    expect(refusedStartFlags([arg], none, 'linux')).toEqual([name]);
    expect(refusedStartFlags(['--lang=fr', arg], none, 'win32')).toEqual([name]);
  });

  it('reads Windows\' slash form on Windows only', () => {
    expect(refusedStartFlags(['/remote-debugging-port=9222'], none, 'win32')).toEqual(['--remote-debugging-port']);
    expect(refusedStartFlags(['/Inspect'], none, 'win32')).toEqual(['--inspect']);
    expect(refusedStartFlags(['/remote-debugging-port=9222'], none, 'linux')).toEqual([]);
  });

  it('finds them anywhere on the line, even after --, and names each once', () => {
    expect(refusedStartFlags(['--', '--inspect', '--js-flags=--x', '--inspect'], none, 'darwin')).toEqual(['--inspect', '--js-flags']);
  });

  it('also asks Chromium\'s own parser', () => {
    expect(refusedStartFlags([], (name) => name === 'remote-debugging-port', 'linux')).toEqual(['--remote-debugging-port']);
  });

  it('lets ordinary switches and arguments through', () => {
    expect(refusedStartFlags(['--lang=fr', '--enable-logging', 'inspect', '--', '-', '--disable-gpu', '--force-device-scale-factor=1.5'], none, 'linux')).toEqual([]);
  });
});
