// @vitest-environment happy-dom
// The one mapping from an error to what staff read: main's reason with its parameters (a field
// named in the desk's language), else the code's sentence in its context; the service's words
// only quoted; main's English message never.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorInfo } from '../../../electron/shared/errors.ts';
import { REASONS, type Reason } from '../../../electron/shared/reasons.ts';
import { codeKey, errorText, type ErrorContext } from '../../../src/gateway/error-text.ts';
import { createDeskI18n } from '../../../src/i18n/index.ts';

const CONTEXTS: ErrorContext[] = ['lookup', 'action', 'search', 'connection', 'other'];
/** Main's English, which must never reach the screen. */
const MAIN_ENGLISH = 'MAIN-ENGLISH-FOR-THE-LOG';

function wording(language: 'en' | 'fr-CA') {
  const { global } = createDeskI18n(language);
  const te = (key: string, locale?: string) => global.te(key, locale as 'en' | undefined);
  return (error: ErrorInfo, context: ErrorContext = 'other', params = {}) => errorText(error, context, params, global.t, te);
}

describe('error text', () => {
  it("says a refused argument with the field and the limit in the desk's language", () => {
    const refusal: ErrorInfo = { code: 'invalid-input', message: 'Library card: is too long (at most 64 characters).', reason: 'input.too-long', params: { field: 'card', max: 64 } };
    expect(wording('en')(refusal).sentence).toBe('Library card: is too long (at most 64 characters).');
    expect(wording('fr-CA')(refusal).sentence).toBe('Carte de bibliothèque : trop long (au plus 64 caractères).');
  });

  it('fills every reason in both languages: no placeholder or key left showing', () => {
    for (const language of ['en', 'fr-CA'] as const) {
      const say = wording(language);
      for (const reason of Object.keys(REASONS) as Reason[]) {
        const names = [...REASONS[reason].matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        const params = Object.fromEntries(names.map((name) => [name, name === 'field' ? 'card' : `«${name}»`]));
        const { sentence } = say({ code: 'invalid-input', message: MAIN_ENGLISH, reason, params });
        // A key left showing reads "card.check-digit"; a sentence may end on "card." like any word.
        expect(sentence, `${language} ${reason}`).not.toMatch(/\{\w+\}|reasons|input\.[a-z]|card\.[a-z]/);
        expect(sentence, `${language} ${reason}`).not.toContain(MAIN_ENGLISH);
      }
    }
  });

  it('gives every code a sentence in every context, in both languages, and never shows main’s English', () => {
    for (const language of ['en', 'fr-CA'] as const) {
      const say = wording(language);
      for (const code of ERROR_CODES) {
        for (const context of CONTEXTS) {
          const key = codeKey({ code, message: '' }, context);
          const { sentence, serviceWords } = say({ code, message: MAIN_ENGLISH }, context);
          expect(sentence, `${language} ${code} ${context}`).not.toBe(key);
          // A placeholder the desk had no value for would leave a gap ("has  on loan").
          expect(sentence, `${language} ${code} ${context}`).not.toMatch(/\s{2}|\s[.,]|^\s|\{/); // French sets a space before ":"
          expect(sentence).not.toContain(MAIN_ENGLISH);
          expect(serviceWords).toBeUndefined();
        }
      }
    }
  });

  it("shows the service's words only as quoted detail, apart from the desk's sentence", () => {
    const refused: ErrorInfo = { code: 'limit-reached', message: 'Allowance used up (0 of 10 left).', serviceMessage: 'Allowance used up (0 of 10 left).' };
    const { sentence, serviceWords } = wording('fr-CA')(refused, 'action', { allowed: 10, remaining: 0 });
    // One name for the lending model in every sentence (issue #35): Instant, not "toujours disponibles".
    expect(sentence).toBe('L’usager a utilisé ses 10 emprunts Instant du mois. Les titres Flex peuvent encore être empruntés.');
    expect(serviceWords).toBe('Allowance used up (0 of 10 left).');
  });

  it('falls back to the code when the reason is one this renderer does not know (a newer main), and names an unknown code plainly', () => {
    const say = wording('fr-CA');
    const newer = { code: 'network', message: MAIN_ENGLISH, reason: 'connection.something-new' } as unknown as ErrorInfo;
    expect(say(newer, 'lookup').sentence).toMatch(/^Le service de prêt est injoignable/);
    const quoted = { code: 'invalid-input', message: MAIN_ENGLISH, reason: "x'] + ['y" } as unknown as ErrorInfo;
    expect(say(quoted).sentence).toMatch(/^La demande a été refusée/);
    const unknown = { code: 'teapot', message: MAIN_ENGLISH } as unknown as ErrorInfo;
    expect(say(unknown).sentence).toBe('Un problème est survenu. Réessayez; si le problème persiste, avertissez le soutien informatique.');
  });

  it('means different things by context: a card unknown on lookup, refused credentials on a connection form', () => {
    const say = wording('en');
    expect(say({ code: 'invalid-patron', message: '' }, 'lookup', { library: 'Riverside (101)' }).sentence).toMatch(/^This card is not known to Riverside \(101\)\./);
    expect(say({ code: 'invalid-patron', message: '' }, 'action').sentence).toMatch(/^The lending service has no account for this card\./);
    expect(say({ code: 'unauthorized', message: '' }, 'connection').sentence).toBe('The lending service refused this username or password. Check them and try again.');
    expect(say({ code: 'unauthorized', message: '' }, 'search').sentence).toMatch(/Ask IT to check the connection/);
  });
});
