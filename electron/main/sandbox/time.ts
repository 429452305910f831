// Wire times are epoch seconds; the injectable clock gives milliseconds.

export const DAY_SECONDS = 86_400;

export function toSeconds(epochMs: number): number {
  return Math.floor(epochMs / 1000);
}

export function startOfUtcMonth(epochSeconds: number): number {
  const date = new Date(epochSeconds * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
}

export function longUtcDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleDateString('en-US', { timeZone: 'UTC', dateStyle: 'long' });
}
