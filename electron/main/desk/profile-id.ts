// Profile ids are derived from the name staff gave ("Main branch" -> "main-branch"), made
// unique with a number, because they name keychain entries and must stay stable.

export function uniqueProfileId(name: string, taken: readonly string[]): string {
  const base = name.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32) || 'profile';
  const stem = base === 'sandbox' ? 'sandbox-partner' : base;
  if (!taken.includes(stem)) return stem;
  for (let n = 2; ; n++) {
    const candidate = `${stem}-${n}`;
    if (!taken.includes(candidate)) return candidate;
  }
}
