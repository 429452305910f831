// electron-builder configuration, as code so that signing switches on from the environment.
// electron-builder 26 loads a .ts config through jiti (app-builder-lib/out/util/config/load.js);
// it only looks for `electron-builder.ts` by itself, so `npm run dist` (scripts/dist.ts) builds
// the config with createBuilderConfig() and hands it over, and a manual run passes
// `--config electron-builder.config.ts`. Tests load this file as code: it never imports
// `electron` (whose loader would try to download a binary).
import { join } from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion, type FuseV1Config } from '@electron/fuses';
import type { AfterPackContext, Configuration } from 'electron-builder';
import { BUILD_INFO_FIELD } from './electron/main/app/build-info.ts';

export const APP_ID = 'org.lendingdesk.console';
export const PRODUCT_NAME = 'Lending Desk';

/**
 * The MSI's upgrade code: Windows Installer knows every version of one product by it, so a new
 * MSI upgrades the installed one in place (and Group Policy and Intune replace it) instead of
 * installing beside it. Generated once for Lending Desk. NEVER CHANGE IT: a different code makes
 * every later MSI a different product, installed next to the old one. (docs/it-deployment.md)
 */
export const MSI_UPGRADE_CODE = '6FE731F0-8A2C-4F19-8598-B9E3EC1B5C29';

export type TargetPlatform = 'win' | 'mac' | 'linux';

export interface BuilderOptions {
  env: Record<string, string | undefined>;
  platforms: TargetPlatform[];
  /** Refuse to build anything that would ship unsigned. */
  release: boolean;
  /** Where the signing notices go (the console in a real build). */
  log: (line: string) => void;
}

// ---------------------------------------------------------------- fuses

/**
 * The fuse wire burnt into the Electron binary at packaging. Each switch closes a way to run
 * other code with the app's identity (and its keychain access): ELECTRON_RUN_AS_NODE,
 * NODE_OPTIONS, --inspect, a loose app folder beside the ASAR, and — on macOS and Windows only —
 * an edited ASAR: Electron checks the ASAR against the hash built into the app there, and not on
 * Linux, where the fuse is set but nothing checks (Electron's docs/tutorial/asar-integrity.md).
 * A Linux package's files are protected by their owner (root, from the deb) instead.
 */
export function fuseConfig(): FuseV1Config {
  return {
    version: FuseVersion.V1,
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  };
}

/** The packaged executable, where @electron/fuses looks for the fuse wire. */
export function electronBinaryPath(context: Pick<AfterPackContext, 'appOutDir' | 'electronPlatformName' | 'packager'>): string {
  const { appOutDir, electronPlatformName, packager } = context;
  const productFilename = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return join(appOutDir, `${productFilename}.app`);
  if (electronPlatformName === 'win32') return join(appOutDir, `${productFilename}.exe`);
  return join(appOutDir, (packager as unknown as { executableName: string }).executableName);
}

/**
 * The afterPack hook. electron-builder runs afterPack after the ASAR and its integrity hash are
 * in place and before code signing (platformPackager.js), which is the one moment fuses can be
 * flipped: later would break the signature.
 */
export function fusesHook(flip: typeof flipFuses = flipFuses): (context: AfterPackContext) => Promise<void> {
  return async (context) => {
    // Flipping fuses changes the binary; on Apple silicon an unsigned app must still carry an
    // ad-hoc signature to start (a signed build is signed properly right after this hook).
    const darwin = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
    await flip(electronBinaryPath(context), { ...fuseConfig(), resetAdHocDarwinSignature: darwin });
  };
}

// ---------------------------------------------------------------- signing

export interface SigningPlan {
  windows: 'certificate' | 'azure-trusted-signing' | null;
  mac: { identity: 'certificate-file' | 'keychain-identity' | null; notarize: 'api-key' | 'apple-id' | 'keychain-profile' | null };
  /** What is missing or half-set, per platform, in words for the build log. */
  missing: Record<TargetPlatform, string[]>;
}

/** Variables for Azure Trusted Signing: the service principal (read by Azure's own tooling) and the account. */
export const AZURE_SIGNING_VARIABLES = [
  'AZURE_TENANT_ID',
  'AZURE_CLIENT_ID',
  'AZURE_CLIENT_SECRET',
  'AZURE_TRUSTED_SIGNING_ENDPOINT',
  'AZURE_TRUSTED_SIGNING_ACCOUNT',
  'AZURE_TRUSTED_SIGNING_CERTIFICATE_PROFILE',
  'AZURE_TRUSTED_SIGNING_PUBLISHER_NAME',
] as const;

const NOTARIZATION_SETS = {
  'api-key': ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'],
  'apple-id': ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'],
  'keychain-profile': ['APPLE_KEYCHAIN_PROFILE'],
} as const;

export function signingPlan(env: Record<string, string | undefined>): SigningPlan {
  const has = (name: string): boolean => Boolean(env[name]?.trim());
  const missing: SigningPlan['missing'] = { win: [], mac: [], linux: [] };

  // electron-builder reads WIN_CSC_LINK (or CSC_LINK) and the password itself.
  let windows: SigningPlan['windows'] = null;
  const azureSet = AZURE_SIGNING_VARIABLES.filter(has);
  if (has('WIN_CSC_LINK') || has('CSC_LINK')) windows = 'certificate';
  else if (azureSet.length === AZURE_SIGNING_VARIABLES.length) windows = 'azure-trusted-signing';
  else if (azureSet.length > 0) missing.win.push(`Azure Trusted Signing is half set up: ${AZURE_SIGNING_VARIABLES.filter((name) => !has(name)).join(', ')} missing`);
  else missing.win.push('no WIN_CSC_LINK/CSC_LINK certificate and no Azure Trusted Signing variables');

  const identity: SigningPlan['mac']['identity'] = has('CSC_LINK') ? 'certificate-file' : has('CSC_NAME') ? 'keychain-identity' : null;
  if (identity === null) missing.mac.push('no CSC_LINK (Developer ID .p12) or CSC_NAME (identity in the keychain)');
  let notarize: SigningPlan['mac']['notarize'] = null;
  for (const [kind, names] of Object.entries(NOTARIZATION_SETS) as Array<[keyof typeof NOTARIZATION_SETS, readonly string[]]>) {
    if (names.every(has)) {
      notarize = kind;
      break;
    }
  }
  if (notarize === null) {
    const partial = Object.values(NOTARIZATION_SETS).find((names) => names.some(has));
    missing.mac.push(partial
      ? `notarization credentials incomplete: ${partial.filter((name) => !has(name)).join(', ')} missing`
      : 'no notarization credentials (APPLE_API_KEY/APPLE_API_KEY_ID/APPLE_API_ISSUER, APPLE_ID/APPLE_APP_SPECIFIC_PASSWORD/APPLE_TEAM_ID, or APPLE_KEYCHAIN_PROFILE)');
  }
  return { windows, mac: { identity, notarize }, missing };
}

/** A Linux deb carries no code signature; its SHA-512 sum in latest-linux.yml (or a signed apt repository) is what vouches for it. */
function isSigned(plan: SigningPlan, platform: TargetPlatform): boolean {
  if (platform === 'win') return plan.windows !== null;
  if (platform === 'mac') return plan.mac.identity !== null && plan.mac.notarize !== null;
  return true;
}

const PLATFORM_NAMES: Record<TargetPlatform, string> = { win: 'Windows', mac: 'macOS', linux: 'Linux' };

// ---------------------------------------------------------------- the configuration

/** The native modules main loads, unpacked beside app.asar (keytar's build, native-reg's prebuilt Windows binaries). */
export const NATIVE_MODULES = ['**/node_modules/keytar/**/*.node', '**/node_modules/native-reg/prebuilds/**/*.node'];

/** electron-vite's output only; dependencies are added by electron-builder from package.json. */
const APP_FILES = ['out/**/*', 'package.json', '!**/*.map'];
/**
 * A platform's `files` replaces the list above, so it repeats it: the same app without the
 * dependencies only the Windows build loads (native-reg reads the policy from the registry and
 * ships Windows binaries only).
 */
const APP_FILES_OUTSIDE_WINDOWS = [...APP_FILES, '!**/node_modules/native-reg/**'];

export function createBuilderConfig(options: BuilderOptions): Configuration {
  const { env, platforms, release, log } = options;
  const plan = signingPlan(env);
  const unsigned = platforms.filter((platform) => !isSigned(plan, platform));
  if (release && unsigned.length > 0) {
    const reasons = unsigned.map((platform) => `${PLATFORM_NAMES[platform]}: ${plan.missing[platform].join('; ')}`).join('\n  ');
    throw new Error(`Release mode refuses to build unsigned installers.\n  ${reasons}\nSee docs/release.md "Installers and signing".`);
  }
  for (const platform of unsigned) {
    log(`Lending Desk: building UNSIGNED ${PLATFORM_NAMES[platform]} packages (${plan.missing[platform].join('; ')}). Fine for testing; release mode (--release or LENDING_DESK_RELEASE=1) refuses this.`);
  }
  if (platforms.includes('linux')) log('Lending Desk: the Linux deb carries no code signature; publish it with its SHA-512 sum (latest-linux.yml), or sign your apt repository.');

  const azure = plan.windows === 'azure-trusted-signing'
    ? {
        azureSignOptions: {
          endpoint: env.AZURE_TRUSTED_SIGNING_ENDPOINT as string,
          codeSigningAccountName: env.AZURE_TRUSTED_SIGNING_ACCOUNT as string,
          certificateProfileName: env.AZURE_TRUSTED_SIGNING_CERTIFICATE_PROFILE as string,
          // Written into app-update.yml: electron-updater accepts an update only from this publisher.
          publisherName: env.AZURE_TRUSTED_SIGNING_PUBLISHER_NAME as string,
        },
      }
    : {};
  const certificate = plan.windows === 'certificate'
    ? { signtoolOptions: { signingHashAlgorithms: ['sha256' as const], rfc3161TimeStampServer: env.WIN_TIMESTAMP_URL || 'http://timestamp.digicert.com' } }
    : {};
  const macSigned = plan.mac.identity !== null;

  return {
    appId: APP_ID,
    productName: PRODUCT_NAME,
    // Into the packaged package.json (inside app.asar): what the app cannot find out by itself
    // (electron/main/app/build-info.ts). An ad-hoc signed macOS app looks signed; only the build knows.
    extraMetadata: { [BUILD_INFO_FIELD]: { macSigned } },
    copyright: 'Copyright © Lending Desk contributors',
    directories: { output: 'dist/${version}', buildResources: 'resources' },
    files: APP_FILES,
    // A production dependency electron-builder cannot find fails the build: electron-builder 26
    // only warns, and ships an app.asar that cannot start (main imports electron-store, which
    // imports conf).
    allowMissingDependencies: false,
    asar: true,
    // A native module inside an ASAR is copied to a temporary folder to be loaded, where the
    // desk's user could swap it: main loads keytar and native-reg by their absolute paths under
    // app.asar (electron/main/app/app-files.ts), which Electron serves from app.asar.unpacked,
    // in Program Files for an install for all users.
    asarUnpack: NATIVE_MODULES,
    // Rebuild keytar for Electron's ABI during the app-deps step, from source: keytar 7.9 is N-API,
    // so its prebuilt binaries would load in Electron 45 too, but they are downloaded from the
    // archived project's releases; the one shipped is built here. (node:sqlite is built in.)
    npmRebuild: true,
    buildDependenciesFromSource: true,
    nodeGypRebuild: false,
    fileAssociations: [],
    protocols: [],
    afterPack: fusesHook(),
    // Missing signing makes electron-builder fail rather than warn in release mode.
    forceCodeSigning: release,
    // Makes electron-builder write latest*.yml (version, SHA-512) beside the installers. The URL
    // the app really uses comes from the policy file at run time (electron/main/app/updates.ts).
    publish: [{ provider: 'generic', url: env.LENDING_DESK_UPDATE_URL || 'https://updates.invalid/lending-desk/' }],

    win: {
      // x64 only: keytar is compiled on the build machine, and cross-compiling it for
      // Windows on Arm needs MSVC's ARM64 tools (x64 runs there under emulation).
      // Two installers of the same app: the MSI for IT's deployment tools (Group Policy and
      // Intune's line-of-business apps take only .msi), NSIS for installing by hand.
      target: [{ target: 'nsis', arch: ['x64'] }, { target: 'msi', arch: ['x64'] }],
      icon: 'resources/icon.ico',
      ...certificate,
      ...azure,
    },
    nsis: {
      // The installer asks: for all users of the computer (Program Files, elevation; such a copy
      // never updates itself: IT installs new versions) or for this user only (in the user's
      // profile, no elevation; may follow a policy's automatic updates). Silent: /S installs for
      // the current user, /S /allusers for all users — a deployment tool running as SYSTEM needs
      // /allusers (or the MSI). /D=<folder> chooses the folder.
      oneClick: false,
      perMachine: false,
      allowElevation: true,
      allowToChangeInstallationDirectory: true,
      createDesktopShortcut: true,
      createStartMenuShortcut: true,
      shortcutName: PRODUCT_NAME,
      // Settings and logs belong to each desk user; an uninstall by IT must not wipe them.
      deleteAppDataOnUninstall: false,
      installerIcon: 'resources/icon.ico',
      uninstallerIcon: 'resources/icon.ico',
      artifactName: '${productName}-Setup-${version}-${arch}.${ext}',
    },
    msi: {
      // For all users, always (Program Files): Group Policy, Intune LOB and SCCM install it as
      // SYSTEM, silently (msiexec /i … /qn). Such a copy never updates itself.
      perMachine: true,
      upgradeCode: MSI_UPGRADE_CODE,
      // Installed by a deployment tool with nobody at the desk: the app is not started.
      runAfterFinish: false,
      createDesktopShortcut: true,
      createStartMenuShortcut: true,
      shortcutName: PRODUCT_NAME,
      artifactName: '${productName}-${version}-${arch}.${ext}',
    },

    mac: {
      target: [{ target: 'dmg', arch: ['arm64', 'x64'] }, { target: 'zip', arch: ['arm64', 'x64'] }],
      files: APP_FILES_OUTSIDE_WINDOWS,
      category: 'public.app-category.productivity',
      icon: 'resources/icon.png',
      hardenedRuntime: true,
      gatekeeperAssess: false,
      entitlements: 'resources/entitlements.mac.plist',
      entitlementsInherit: 'resources/entitlements.mac.plist',
      // null = do not sign (and do not pick whatever identity the keychain happens to hold).
      ...(macSigned ? {} : { identity: null }),
      // Reads APPLE_API_KEY…, APPLE_ID… or APPLE_KEYCHAIN_PROFILE from the environment itself.
      notarize: macSigned && plan.mac.notarize !== null,
    },
    dmg: { artifactName: '${productName}-${version}-${arch}.${ext}' },

    linux: {
      files: APP_FILES_OUTSIDE_WINDOWS,
      // The deb is the supported Linux package: it installs chrome-sandbox setuid root and an
      // AppArmor profile, so the app starts on Ubuntu 24.04 and later, where AppArmor refuses
      // the unprivileged user namespaces an AppImage's sandbox needs (electron/electron#42510).
      // No AppImage: it aborts at start there. No rpm: it is not built or tried on this
      // project's build machines (electron-builder's rpm needs rpmbuild).
      target: [{ target: 'deb', arch: ['x64'] }],
      icon: 'resources/icons',
      category: 'Office',
      maintainer: 'Lending Desk <it@lendingdesk.invalid>',
      synopsis: 'Staff console for library circulation desks',
      executableName: 'lending-desk',
    },
    // electron-builder's default deb dependencies already include libsecret-1-0, the Secret
    // Service client keytar links against; setting `depends` here would replace that list.
    deb: { artifactName: '${name}_${version}_${arch}.${ext}' },
  };
}

// ---------------------------------------------------------------- from the command line

export function platformsFromArgs(args: readonly string[], host: NodeJS.Platform = process.platform): TargetPlatform[] {
  const chosen = new Set<TargetPlatform>();
  for (const arg of args) {
    if (arg === '--win' || arg === '-w' || arg === '--windows') chosen.add('win');
    else if (arg === '--mac' || arg === '-m' || arg === '--macos') chosen.add('mac');
    else if (arg === '--linux' || arg === '-l') chosen.add('linux');
  }
  if (chosen.size > 0) return [...chosen];
  return [host === 'win32' ? 'win' : host === 'darwin' ? 'mac' : 'linux'];
}

export function isReleaseMode(args: readonly string[], env: Record<string, string | undefined>): boolean {
  return args.includes('--release') || env.LENDING_DESK_RELEASE === '1' || env.LENDING_DESK_RELEASE === 'true';
}

/** For `electron-builder --config electron-builder.config.ts`: everything from the environment and argv. */
export default function configFromEnvironment(): Configuration {
  const args = process.argv.slice(2);
  return createBuilderConfig({
    env: process.env,
    platforms: platformsFromArgs(args),
    release: isReleaseMode(args, process.env),
    log: (line) => console.log(line),
  });
}
