// The two sentences a packaged desk says when it refuses to start (electron/main/app/start-flags.ts),
// in French: main shows them before any window or setting exists, so it cannot know the desk's
// language and says both. The English is REASONS' own; the French is written once, here, and the
// locale file (src/i18n/fr-CA.ts) takes it from here, so the two never drift apart.
import type { Reason } from './reasons.ts';

export const START_REFUSALS_FR = {
  'start.debugging-refused': 'Lending Desk ne démarre pas avec des options de débogage ({flags}). Lancez-le à partir de son raccourci habituel, sans autre option.',
  'start.network-refused': 'Lending Desk ne démarre pas avec des options qui changent sa façon de joindre le réseau ({flags}). Le service informatique de votre bibliothèque règle les serveurs mandataires dans les paramètres du système d’exploitation. Lancez-le à partir de son raccourci habituel.',
} as const satisfies Partial<Record<Reason, string>>;

export type StartRefusal = keyof typeof START_REFUSALS_FR;
