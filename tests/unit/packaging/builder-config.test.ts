// The electron-builder configuration, loaded as code: once through electron-builder's own
// loader and schema check (exactly what `electron-builder --config` does), and once through
// createBuilderConfig() with chosen environments. No Electron binary is needed for any of it.
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, matchesGlob, relative } from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import type { AfterPackContext, Configuration } from 'electron-builder';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APP_ID, createBuilderConfig, fuseConfig, fusesHook, MSI_UPGRADE_CODE, type BuilderOptions } from '../../../electron-builder.config.ts';
import { writeStandInElectronDist } from '../../../scripts/dist.ts';
import { nativeRegBinary } from '../../../electron/main/policy/windows-registry.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const require = createRequire(join(ROOT, 'package.json'));
const { getConfig } = require('app-builder-lib/out/util/config/load.js') as {
  getConfig(request: { packageKey: string; configFilename: string; projectDir: string }, configPath: string): Promise<{ result: Configuration }>;
};
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration(config: Configuration, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
};

/** The configuration exactly as `electron-builder --config electron-builder.config.ts` resolves it. */
async function loaded(): Promise<Configuration> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    return (await getConfig({ packageKey: 'build', configFilename: 'electron-builder', projectDir: ROOT }, 'electron-builder.config.ts')).result;
  } finally {
    log.mockRestore();
  }
}

const CERTIFICATE = { CSC_LINK: '/secure/lending-desk.p12', CSC_KEY_PASSWORD: 'not-a-real-password' };
const AZURE = {
  AZURE_TENANT_ID: 'tenant', AZURE_CLIENT_ID: 'client', AZURE_CLIENT_SECRET: 'secret',
  AZURE_TRUSTED_SIGNING_ENDPOINT: 'https://eus.codesigning.azure.net/', AZURE_TRUSTED_SIGNING_ACCOUNT: 'library-signing',
  AZURE_TRUSTED_SIGNING_CERTIFICATE_PROFILE: 'public-trust', AZURE_TRUSTED_SIGNING_PUBLISHER_NAME: 'City Library IT',
};
const APPLE = { CSC_NAME: 'Developer ID Application: City Library (TEAM123456)', APPLE_API_KEY: '/secure/AuthKey.p8', APPLE_API_KEY_ID: 'KEY123', APPLE_API_ISSUER: 'issuer-uuid' };

function configWith(options: Partial<BuilderOptions> = {}): { config: Configuration; lines: string[] } {
  const lines: string[] = [];
  const config = createBuilderConfig({ env: {}, platforms: ['win', 'mac', 'linux'], release: false, log: (line) => lines.push(line), ...options });
  return { config, lines };
}

describe('the config file as electron-builder loads it', () => {
  it('loads through electron-builder\'s own loader (jiti) and passes its schema', async () => {
    const result = await loaded();
    expect(result.appId).toBe(APP_ID);
    expect(typeof result.afterPack).toBe('function');
    await expect(validateConfiguration(result, { isEnabled: false, add: () => {} })).resolves.toBeUndefined();
  });

  it('as loaded: the MSI (per-machine, its fixed upgrade code) beside NSIS for Windows, the deb alone for Linux', async () => {
    const result = await loaded();
    expect(result.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }, { target: 'msi', arch: ['x64'] }]);
    expect(result.msi).toMatchObject({ perMachine: true, upgradeCode: '6FE731F0-8A2C-4F19-8598-B9E3EC1B5C29', runAfterFinish: false });
    expect(result.nsis).toMatchObject({ oneClick: false, perMachine: false, allowElevation: true });
    expect(result.linux?.target).toEqual([{ target: 'deb', arch: ['x64'] }]);
    expect(result.appImage).toBeUndefined();
  });

  it('keeps the configuration out of package.json, where electron-builder would prefer it', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).build).toBeUndefined();
  });

  it('passes the schema for every signing set-up', async () => {
    for (const config of [
      configWith().config,
      configWith({ env: { ...CERTIFICATE, ...APPLE }, release: true }).config,
      configWith({ env: { ...AZURE, ...APPLE }, platforms: ['win', 'mac'] }).config,
    ]) await expect(validateConfiguration(config, { isEnabled: false, add: () => {} })).resolves.toBeUndefined();
  });
});

describe('targets', () => {
  const { config } = configWith();

  it('ships the registry reader (native-reg, Windows binaries only) in the Windows build alone', () => {
    const { config } = configWith();
    const files = (patterns: unknown) => (patterns as string[]).join(' ');
    expect(files(config.files)).not.toContain('native-reg');
    expect(config.win?.files).toBeUndefined();
    for (const platform of [config.mac, config.linux]) {
      expect(files(platform?.files)).toContain('!**/node_modules/native-reg/**');
      for (const pattern of config.files as string[]) expect(platform?.files).toContain(pattern); // the same app otherwise
    }
  });

  it('names the app', () => {
    expect(config.appId).toBe('org.lendingdesk.console');
    expect(config.productName).toBe('Lending Desk');
    expect(config.fileAssociations).toEqual([]);
  });

  it('builds an MSI for all users and an NSIS installer that asks (silent: /S, /S /allusers) for Windows', () => {
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }, { target: 'msi', arch: ['x64'] }]);
    expect(config.nsis).toMatchObject({ oneClick: false, perMachine: false });
    expect(config.msi).toMatchObject({ perMachine: true, upgradeCode: MSI_UPGRADE_CODE });
    expect(config.win?.icon).toBe('resources/icon.ico');
  });

  it('keeps the MSI upgrade code written down, never to change: in the config and in IT\'s deployment page', () => {
    expect(MSI_UPGRADE_CODE).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(readFileSync(join(ROOT, 'electron-builder.config.ts'), 'utf8')).toMatch(/NEVER CHANGE IT/);
    expect(readFileSync(join(ROOT, 'docs', 'it-deployment.md'), 'utf8')).toContain(MSI_UPGRADE_CODE);
  });

  it('writes into the packaged package.json whether the macOS build is signed (read at start: unsigned builds refuse auto updates)', () => {
    expect(configWith().config.extraMetadata).toEqual({ lendingDeskBuild: { macSigned: false } });
    expect(configWith({ env: { ...APPLE } }).config.extraMetadata).toEqual({ lendingDeskBuild: { macSigned: true } });
  });

  it('builds a dmg and a zip for macOS with the hardened runtime and our entitlements', () => {
    const targets = (config.mac?.target as Array<{ target: string }>).map((target) => target.target);
    expect(targets).toEqual(['dmg', 'zip']);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.mac?.entitlements).toBe('resources/entitlements.mac.plist');
    const entitlements = readFileSync(join(ROOT, 'resources', 'entitlements.mac.plist'), 'utf8');
    expect(entitlements).toContain('com.apple.security.cs.allow-jit');
    expect(entitlements).not.toContain('disable-library-validation');
  });

  it('builds the deb for Linux, and no AppImage (it aborts at start under Ubuntu 24.04\'s AppArmor rules)', () => {
    const targets = (config.linux?.target as Array<{ target: string }>).map((target) => target.target);
    expect(targets).toEqual(['deb']);
    expect(config.linux?.icon).toBe('resources/icons');
  });

  it('names a publisher for the installers: package.json\'s author, which electron-builder makes the MSI\'s Manufacturer and the NSIS CompanyName (issue #33: it read "Lending Desk")', () => {
    const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { productName: string; author?: unknown };
    const { AppInfo } = require('app-builder-lib/out/appInfo.js') as { AppInfo: { prototype: object } };
    // electron-builder's own getter (appInfo.js), over this package.json as its metadata.
    const companyName = Object.getOwnPropertyDescriptor(AppInfo.prototype, 'companyName')!.get!.call({ info: { metadata: packageJson, devMetadata: packageJson }, notNullDevMetadata: packageJson });
    expect(companyName).toBe('Lending Desk contributors');
    expect(companyName).not.toBe(packageJson.productName);
    expect(config.copyright).toContain(companyName);
  });

  it('unpacks the native modules main loads (keytar, native-reg) from the ASAR and rebuilds keytar for Electron', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/node_modules/keytar/**/*.node');
    // The very files main loads by absolute path (app-files.ts, windows-registry.ts), as they sit in app.asar.
    const inAsar = (file: string): string => relative(ROOT, file).replaceAll('\\', '/');
    const keytarNative = join(ROOT, 'node_modules', 'keytar', 'build', 'Release', 'keytar.node');
    for (const file of [nativeRegBinary(join(ROOT, 'node_modules'), 'x64'), keytarNative]) {
      expect((config.asarUnpack as string[]).some((glob) => matchesGlob(inAsar(file), glob)), inAsar(file)).toBe(true);
    }
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(true);
  });

  it('packs only the electron-vite output', () => {
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', 'package.json']));
  });

  it('fails the build when a production dependency cannot be found, instead of shipping an app that cannot start', () => {
    expect(config.allowMissingDependencies).toBe(false);
  });

  it('publishes update metadata for the generic provider', () => {
    expect(config.publish).toEqual([expect.objectContaining({ provider: 'generic' })]);
  });
});

describe('fuses', () => {
  it('turns off every way to run other code as the app in the release build', () => {
    const fuses = fuseConfig();
    expect(fuses[FuseV1Options.RunAsNode]).toBe(false);
    expect(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
    expect(fuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
    expect(fuses[FuseV1Options.EnableCookieEncryption]).toBe(true);
    expect(fuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
    expect(fuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
    expect(fuses[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(false);
  });

  it('flips them from the afterPack hook, on the packaged executable', async () => {
    const flip = vi.fn(async () => 0);
    const context = (platform: string, dir: string) => ({
      appOutDir: dir,
      electronPlatformName: platform,
      packager: { appInfo: { productFilename: 'Lending Desk' }, executableName: 'lending-desk' },
    }) as unknown as AfterPackContext;
    const hook = fusesHook(flip);
    await hook(context('win32', 'C'));
    await hook(context('darwin', 'M'));
    await hook(context('linux', 'L'));
    expect(flip.mock.calls.map((call) => (call as unknown[])[0])).toEqual([join('C', 'Lending Desk.exe'), join('M', 'Lending Desk.app'), join('L', 'lending-desk')]);
    expect((flip.mock.calls[0] as unknown[])[1]).toEqual({ ...fuseConfig(), resetAdHocDarwinSignature: false });
    expect((flip.mock.calls[1] as unknown[])[1]).toMatchObject({ resetAdHocDarwinSignature: true });
    expect(configWith().config.afterPack).toBeTypeOf('function');
  });

  describe('on a stand-in binary with a real fuse wire', () => {
    let dir: string | undefined;
    afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

    it('writes the wire with @electron/fuses itself', async () => {
      dir = mkdtempSync(join(tmpdir(), 'lending-desk-fuses-'));
      // The stand-in Electron dist npm run dist packs the layout with: a stock fuse wire (RunAsNode and friends on).
      writeStandInElectronDist(join(dir, 'app'));
      renameSync(join(dir, 'app', 'electron'), join(dir, 'app', 'lending-desk'));
      expect((await getCurrentFuseWire(join(dir, 'app', 'lending-desk')))[FuseV1Options.RunAsNode]).toBe(FuseState.ENABLE);
      const context = { appOutDir: join(dir, 'app'), electronPlatformName: 'linux', packager: { appInfo: { productFilename: 'Lending Desk' }, executableName: 'lending-desk' } } as unknown as AfterPackContext;
      await fusesHook()(context);
      const wire = await getCurrentFuseWire(join(dir, 'app', 'lending-desk'));
      expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
      expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
      expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
      expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
      expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
      expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
      expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
    });
  });
});
