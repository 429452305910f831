// A mirrored record's fields as staff read them: a duration the service writes as "840m 26s"
// shows as 14:00 (h:mm), a language it writes as ENGLISH or "en" shows by its name in the
// desk's language ("English", "anglais").
import { durationSeconds, hoursMinutes } from '../../../electron/shared/duration.ts';

/** Minutes and seconds ("840m 26s", "45m", "90s", "1h 5m") to h:mm; undefined when it is not a duration. */
export function durationHm(text: string | undefined): string | undefined {
  const seconds = durationSeconds(text);
  return seconds === undefined ? undefined : hoursMinutes(seconds);
}

/** The names the service uses, to the codes Intl knows them by. */
const LANGUAGE_CODES: Record<string, string> = {
  ENGLISH: 'en', FRENCH: 'fr', SPANISH: 'es', GERMAN: 'de', ITALIAN: 'it', PORTUGUESE: 'pt', CHINESE: 'zh', JAPANESE: 'ja',
  KOREAN: 'ko', RUSSIAN: 'ru', ARABIC: 'ar', HINDI: 'hi', DUTCH: 'nl', POLISH: 'pl', VIETNAMESE: 'vi', TAGALOG: 'tl',
};

export function languageName(value: string | undefined, locale: string): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const code = LANGUAGE_CODES[text.toUpperCase()] ?? (/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(text) ? text : undefined);
  if (code) {
    try {
      const name = new Intl.DisplayNames([locale], { type: 'language' }).of(code);
      if (name && name.toLowerCase() !== code.toLowerCase()) return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
    } catch {
      // not a language code after all: shown as written below
    }
  }
  return text === text.toUpperCase() ? text.charAt(0) + text.slice(1).toLowerCase() : text;
}
