// Dates and numbers through Intl in the chosen language. The model leaves absent fields
// undefined; anything that is not a plausible time is treated as absent, so a stray 0 never
// shows as 1970.
import { useI18n } from 'vue-i18n';

const DAY_MS = 86_400_000;

export function isPlausibleTime(ms: number | undefined): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0;
}

export function isCount(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Whole calendar days from `now` to `ms` in local time (due tomorrow is 1 even 20 hours ahead). */
export function daysFrom(now: number, ms: number): number {
  const start = new Date(now);
  const end = new Date(ms);
  const startDay = Date.UTC(start.getFullYear(), start.getMonth(), start.getDate());
  const endDay = Date.UTC(end.getFullYear(), end.getMonth(), end.getDate());
  return Math.round((endDay - startDay) / DAY_MS);
}

/** The first day of the month after `now`, local time: when the monthly allowance comes back. */
export function firstOfNextMonth(now: number): number {
  const date = new Date(now);
  return new Date(date.getFullYear(), date.getMonth() + 1, 1).getTime();
}

/** One number format per language: making one costs more than formatting, and the Collection formats counts at every keystroke. */
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string): Intl.NumberFormat {
  let made = numberFormats.get(locale);
  if (!made) {
    made = new Intl.NumberFormat(locale);
    numberFormats.set(locale, made);
  }
  return made;
}

export function useDeskFormat() {
  const { locale } = useI18n();
  return {
    date: (ms: number) => new Intl.DateTimeFormat(locale.value, { dateStyle: 'medium' }).format(ms),
    dateTime: (ms: number) => new Intl.DateTimeFormat(locale.value, { dateStyle: 'medium', timeStyle: 'short' }).format(ms),
    time: (ms: number) => new Intl.DateTimeFormat(locale.value, { timeStyle: 'short' }).format(ms),
    number: (value: number) => numberFormat(locale.value).format(value),
    /** "Nov 28" / "28 nov.", with the year only when it is not this year's: a due date read out. */
    dayMonth: (ms: number, now = Date.now()) => new Intl.DateTimeFormat(locale.value, {
      month: 'short', day: 'numeric', ...(new Date(ms).getFullYear() === new Date(now).getFullYear() ? {} : { year: 'numeric' }),
    }).format(ms),
    /** "April" / "avril". */
    monthName: (ms: number) => new Intl.DateTimeFormat(locale.value, { month: 'long' }).format(ms),
    /** "in 3 days", "tomorrow", "today" in the chosen language. */
    relativeDays: (ms: number, now = Date.now()) =>
      new Intl.RelativeTimeFormat(locale.value, { numeric: 'auto' }).format(daysFrom(now, ms), 'day'),
    /** "2 minutes ago", "now": the largest unit that fits. */
    relativeTime: (ms: number, now = Date.now()) => {
      const seconds = Math.round((ms - now) / 1000);
      const rtf = new Intl.RelativeTimeFormat(locale.value, { numeric: 'auto' });
      const abs = Math.abs(seconds);
      if (abs < 60) return rtf.format(seconds, 'second');
      if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
      if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
      return rtf.format(Math.round(seconds / 86_400), 'day');
    },
  };
}
