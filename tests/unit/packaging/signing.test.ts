// Signing switches on from the environment, is left out (and said to be) without it, and
// release mode refuses to go on unsigned.
import { describe, expect, it } from 'vitest';
import { createBuilderConfig, isReleaseMode, platformsFromArgs, signingPlan, type BuilderOptions } from '../../../electron-builder.config.ts';

const CERTIFICATE = { CSC_LINK: '/secure/lending-desk.p12', CSC_KEY_PASSWORD: 'not-a-real-password' };
const AZURE = {
  AZURE_TENANT_ID: 'tenant', AZURE_CLIENT_ID: 'client', AZURE_CLIENT_SECRET: 'secret',
  AZURE_TRUSTED_SIGNING_ENDPOINT: 'https://eus.codesigning.azure.net/', AZURE_TRUSTED_SIGNING_ACCOUNT: 'library-signing',
  AZURE_TRUSTED_SIGNING_CERTIFICATE_PROFILE: 'public-trust', AZURE_TRUSTED_SIGNING_PUBLISHER_NAME: 'City Library IT',
};
const APPLE_ID = { CSC_NAME: 'Developer ID Application: City Library (TEAM123456)', APPLE_ID: 'it@library.example', APPLE_APP_SPECIFIC_PASSWORD: 'abcd-efgh', APPLE_TEAM_ID: 'TEAM123456' };

function build(options: Partial<BuilderOptions>) {
  const lines: string[] = [];
  const config = createBuilderConfig({ env: {}, platforms: ['win', 'mac'], release: false, log: (line) => lines.push(line), ...options });
  return { config, lines };
}

describe('without signing secrets', () => {
  it('still builds, unsigned, and says so per platform', () => {
    const { config, lines } = build({});
    expect(config.win?.signtoolOptions).toBeUndefined();
    expect(config.win?.azureSignOptions).toBeUndefined();
    expect(config.mac?.identity).toBeNull(); // not whatever the keychain happens to hold
    expect(config.mac?.notarize).toBe(false);
    expect(config.forceCodeSigning).toBe(false);
    expect(lines).toEqual([
      expect.stringMatching(/UNSIGNED Windows.*CSC_LINK/),
      expect.stringMatching(/UNSIGNED macOS.*CSC_NAME.*notarization/),
    ]);
  });

  it('notes that Linux packages carry no code signature', () => {
    expect(build({ platforms: ['linux'] }).lines).toEqual([expect.stringMatching(/the Linux deb carries no code signature/)]);
  });
});

describe('with signing secrets in the environment', () => {
  it('signs Windows with a certificate (CSC_LINK / CSC_KEY_PASSWORD, read by electron-builder)', () => {
    const { config, lines } = build({ env: CERTIFICATE, platforms: ['win'] });
    expect(signingPlan(CERTIFICATE).windows).toBe('certificate');
    expect(config.win?.signtoolOptions).toMatchObject({ signingHashAlgorithms: ['sha256'] });
    expect(config.win?.azureSignOptions).toBeUndefined();
    expect(lines).toEqual([]);
    // The secrets themselves never enter the configuration (or its logs).
    expect(JSON.stringify(config)).not.toContain('not-a-real-password');
  });

  it('signs Windows with Azure Trusted Signing', () => {
    const { config } = build({ env: AZURE, platforms: ['win'] });
    expect(config.win?.azureSignOptions).toEqual({
      endpoint: 'https://eus.codesigning.azure.net/', codeSigningAccountName: 'library-signing',
      certificateProfileName: 'public-trust', publisherName: 'City Library IT',
    });
    expect(JSON.stringify(config)).not.toContain('"secret"');
  });

  it('names what is missing from a half-done Azure set-up', () => {
    const { lines } = build({ env: { AZURE_TENANT_ID: 't', AZURE_CLIENT_ID: 'c' }, platforms: ['win'] });
    expect(lines[0]).toMatch(/half set up: AZURE_CLIENT_SECRET, AZURE_TRUSTED_SIGNING_ENDPOINT/);
  });

  it('signs and notarizes macOS from the identity and Apple credentials', () => {
    const { config, lines } = build({ env: APPLE_ID, platforms: ['mac'] });
    expect(config.mac?.identity).toBeUndefined(); // electron-builder picks CSC_NAME up itself
    expect(config.mac?.notarize).toBe(true);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(lines).toEqual([]);
    expect(signingPlan({ ...APPLE_ID, APPLE_ID: undefined }).mac.notarize).toBeNull();
    expect(signingPlan({ CSC_LINK: 'x', APPLE_KEYCHAIN_PROFILE: 'notary' }).mac).toEqual({ identity: 'certificate-file', notarize: 'keychain-profile' });
  });
});

describe('release mode', () => {
  it('refuses to build unsigned, naming what is missing', () => {
    expect(() => build({ release: true })).toThrow(/refuses to build unsigned[\s\S]*Windows: no WIN_CSC_LINK[\s\S]*macOS: no CSC_LINK/);
    expect(() => build({ release: true, env: CERTIFICATE, platforms: ['mac'] })).toThrow(/macOS: no notarization credentials/);
  });


  it('builds when everything is signed, and makes electron-builder fail if signing then fails', () => {
    const { config } = build({ release: true, env: { ...AZURE, ...APPLE_ID } });
    expect(config.forceCodeSigning).toBe(true);
  });

  it('is switched on by --release or LENDING_DESK_RELEASE=1', () => {
    expect(isReleaseMode(['--release'], {})).toBe(true);
    expect(isReleaseMode([], { LENDING_DESK_RELEASE: '1' })).toBe(true);
    expect(isReleaseMode([], {})).toBe(false);
  });
});

describe('platforms', () => {
  it('come from the command line, else the host', () => {
    expect(platformsFromArgs(['--win', '-m'], 'linux')).toEqual(['win', 'mac']);
    expect(platformsFromArgs([], 'darwin')).toEqual(['mac']);
    expect(platformsFromArgs(['--release'], 'win32')).toEqual(['win']);
  });
});
