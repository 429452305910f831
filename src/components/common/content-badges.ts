// A title's content flags as the badges staff see (issue #34): a sample, explicit language, an
// edited version, fixed layout, a children's title. Only the flags the service says yes to.
import type { ContentFlag } from '../../../electron/shared/collection.ts';

export type Badge = ContentFlag | 'fixedLayout' | 'kids';

/** The flags as a record, a search hit or a Collection row carries them. */
export interface FlagSource {
  demo?: boolean | undefined;
  profanity?: boolean | undefined;
  edited?: boolean | undefined;
  fixedLayout?: boolean | undefined;
  forChildren?: boolean | undefined;
  /** A Collection row's flags (the mirror's). */
  flags?: readonly ContentFlag[] | undefined;
}

export function badgesOf(source: FlagSource): Badge[] {
  const yes = (flag: ContentFlag, value: boolean | undefined): boolean => value === true || (source.flags?.includes(flag) ?? false);
  const badges: Badge[] = [];
  if (yes('sample', source.demo)) badges.push('sample');
  if (yes('profanity', source.profanity)) badges.push('profanity');
  if (yes('edited', source.edited)) badges.push('edited');
  if (source.fixedLayout === true) badges.push('fixedLayout');
  if (source.forChildren === true) badges.push('kids');
  return badges;
}
