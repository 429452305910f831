// The locale files' fixed words (a key with no parameters), each looked up once per language. A
// view that renders at every keystroke (the Collection, issue #30: its form, headings and rows)
// reads a Map instead of running vue-i18n's translate for the same forty words each time. Reading
// the language here makes what rendered a word render again when the language changes.
import { useI18n } from 'vue-i18n';

/** Per i18n instance (the app's one; a test's own), per language: key → words. */
const known = new WeakMap<object, Map<string, Map<string, string>>>();

export function useLabels(): (key: string) => string {
  const i18n = useI18n();
  let languages = known.get(i18n);
  if (!languages) {
    languages = new Map();
    known.set(i18n, languages);
  }
  const byLanguage = languages;
  return (key) => {
    const language = i18n.locale.value;
    let words = byLanguage.get(language);
    if (!words) {
      words = new Map();
      byLanguage.set(language, words);
    }
    let text = words.get(key);
    if (text === undefined) {
      text = i18n.t(key);
      words.set(key, text);
    }
    return text;
  };
}
