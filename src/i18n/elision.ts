// French elides "de" before a vowel: "d’Amélie", "d’Avatar", but "de Gabriel". A plain message
// cannot know what its placeholder will hold, so the French messages that put a name or a title
// after "de" are vue-i18n message functions made from their source text: the text stays
// readable here, and `source` lets the tests hold its placeholders to the English ones.
import type { MessageContext } from 'vue-i18n';

/** A message as the locale files hold it: text, or a function of the named values. */
export type MessageFunction = ((ctx: MessageContext) => string) & { source: string };
export type LocaleMessage = string | MessageFunction;

const VOWEL_FIRST = /^[aeiouyàâäæéèêëîïôöœùûüÿ]/i;

/** "de" (or "De") before a value that starts with a vowel becomes "d’" ("D’"). */
export function elidedDe(word: 'de' | 'De', value: string): string {
  return VOWEL_FIRST.test(value) ? `${word[0]}’${value}` : `${word} ${value}`;
}

/** A French message whose "de {name}" elides according to the value it receives. */
export function elided(source: string): MessageFunction {
  const message = (ctx: MessageContext): string => source.replace(/(?:\b(de|De) )?\{(\w+)\}/g, (_whole, word: 'de' | 'De' | undefined, key: string) => {
    const value = ctx.named(key);
    const text = value === undefined || value === null ? '' : String(value);
    return word ? elidedDe(word, text) : text;
  });
  return Object.assign(message, { source });
}

/** The text a message was written as (a function's source), for tests and tools. */
export function sourceOf(message: LocaleMessage): string {
  return typeof message === 'string' ? message : message.source;
}
