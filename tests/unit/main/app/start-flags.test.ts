// Debugging switches a packaged app refuses, in every form Chromium or Node would accept.
import { describe, expect, it } from 'vitest';
import { refusedNetworkOptions, refusedStartFlags } from '../../../../electron/main/app/start-flags.ts';

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

describe('refused network options', () => {
  it.each([
    '--proxy-server=socks5://10.0.0.9:1080', '--proxy-pac-url=http://x/p.pac', '--proxy-bypass-list=<-loopback>', '--no-proxy-server', '--proxy-auto-detect',
    '--host-resolver-rules=MAP * 10.0.0.9', '--host-rules=MAP * 10.0.0.9', '--ignore-certificate-errors', '--ignore-certificate-errors-spki-list=abc',
    '--allow-insecure-localhost', '--ssl-key-log-file=/tmp/k', '--log-net-log=/tmp/n.json', '--net-log-capture-mode=Everything', '--net-log-max-size=1',
  ])('refuses %s in every form', (arg) => {
    const name = arg.split('=')[0]!;
    expect(refusedNetworkOptions([arg], none, 'linux', {})).toEqual([name]);
    expect(refusedNetworkOptions([`-${arg.slice(2).toUpperCase()}`], none, 'darwin', {})).toEqual([name]);
    expect(refusedNetworkOptions([`/${arg.slice(2)}`], none, 'win32', {})).toEqual([name]);
  });

  it('refuses the variables that write TLS keys or loosen certificate checks, set to anything (Windows ignores their case)', () => {
    expect(refusedNetworkOptions([], none, 'linux', { SSLKEYLOGFILE: '/tmp/keys', NODE_TLS_REJECT_UNAUTHORIZED: '0', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' }))
      .toEqual(['SSLKEYLOGFILE', 'NODE_TLS_REJECT_UNAUTHORIZED']);
    expect(refusedNetworkOptions([], none, 'win32', { SslKeyLogFile: 'C:\\keys' })).toEqual(['SSLKEYLOGFILE']);
    expect(refusedNetworkOptions([], none, 'linux', { SSLKEYLOGFILE: '' })).toEqual([]);
  });

  it('also asks Chromium\'s own parser, and lets the OS proxy variables and ordinary switches through', () => {
    expect(refusedNetworkOptions([], (name) => name === 'proxy-server', 'linux', {})).toEqual(['--proxy-server']);
    expect(refusedNetworkOptions(['--lang=fr', '--disable-gpu', 'proxy-server'], none, 'linux', { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'localhost' })).toEqual([]);
  });
});
