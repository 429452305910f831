// What the build machine knew about this build and the app cannot find out by itself: whether the
// macOS app was signed with a Developer ID (an unsigned build still carries an ad-hoc signature,
// so its bundle looks signed). electron-builder writes it into the packaged package.json
// (`lendingDeskBuild`, electron-builder.config.ts), inside app.asar, whose integrity macOS and
// Windows check at start. An unpackaged run, or a package.json without it, counts as unsigned.

export interface BuildInfo {
  macSigned: boolean;
}

export const BUILD_INFO_FIELD = 'lendingDeskBuild';

export function readBuildInfo(packageJson: string | undefined): BuildInfo {
  try {
    const field = (JSON.parse(packageJson ?? '{}') as Record<string, unknown>)[BUILD_INFO_FIELD] as { macSigned?: unknown } | undefined;
    return { macSigned: field?.macSigned === true };
  } catch {
    return { macSigned: false };
  }
}
