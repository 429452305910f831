// Live availability in words, for search results, a title's details and Collection rows:
// "Available · 1 of 2 copies free · 3 waiting" (plural rules from the locale).
import type { AvailabilityStatus } from '../../../electron/shared/model.ts';
import { isCount } from '../../i18n/format.ts';

type Translate = (key: string, named?: Record<string, unknown>, plural?: number) => string;

export interface AvailabilityFacts {
  status?: AvailabilityStatus | undefined;
  availableCopies?: number | undefined;
  totalCopies?: number | undefined;
  holdsQueueSize?: number | undefined;
  /** The service left the title out of its answer, asked twice. */
  unknown?: true | undefined;
}

/** `offerShown`: the hold offer beside a Place hold button already says "no copy free" and the queue. */
export function availabilityParts(a: AvailabilityFacts | undefined, t: Translate, number: (n: number) => string, offerShown = false): string[] {
  if (!a) return [];
  if (a.unknown) return [t('catalog.availabilityUnknown')];
  const parts: string[] = [];
  const quiet = offerShown && a.status === 'HOLD';
  if (a.status && !quiet) parts.push(t(`catalog.availability.${a.status}`));
  if (isCount(a.availableCopies) && isCount(a.totalCopies)) {
    parts.push(t('catalog.copies', { available: number(a.availableCopies), total: number(a.totalCopies) }, a.totalCopies));
  }
  if (isCount(a.holdsQueueSize) && a.holdsQueueSize > 0 && !quiet) parts.push(t('catalog.queue', { count: number(a.holdsQueueSize) }));
  return parts;
}
