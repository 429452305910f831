// Running times as the service writes them (records: "840m 26s", "45m", "1h 5m"; search results:
// whole seconds) and as staff read them: h:mm.

/** "840m 26s", "45m", "90s", "1h 5m" to seconds; undefined when the text is not a duration. */
export function durationSeconds(text: string | undefined): number | undefined {
  const match = text?.trim().match(/^(?:(\d+)\s*h)?\s*(?:(\d+)\s*m)?\s*(?:(\d+)\s*s)?$/i);
  if (!match || (match[1] ?? match[2] ?? match[3]) === undefined) return undefined;
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

/** Seconds as h:mm (to the nearest minute): 3 h 05 min reads 3:05, 47 min reads 0:47. */
export function hoursMinutes(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}
