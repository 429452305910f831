// An on-behalf action as the action log keeps it and the desk shows it, and the filters staff
// read it with. Types and constants only.
import type { ContentId } from './content-id.ts';

export type ActionKind = 'borrow' | 'return' | 'place-hold' | 'remove-hold';
/** Reading or exporting the log is itself logged: who, when, which filter (no card, no title). */
export type LogAuditKind = 'log-read' | 'log-export';
/** A change of the computer's time zone, found by the desk (issue #33): when, and from which zone to which. */
export type ZoneChangeKind = 'zone-change';

export interface ActionEntry {
  time: number;
  /** The name typed (or, with per-staff PINs, the policy's spelling of it); with the desk PIN, '' or the name chosen from IT's list. */
  staff: string;
  /** Signed in with the shared desk PIN (issue #35): the staff column says "desk PIN", not a name anyone could type. */
  deskPin?: true;
  /** The operating system's user name at the desk, beside the typed name. */
  osUser?: string;
  profile: string;
  libraryId: number;
  /** The library's name in the connection profile, when it has one. */
  libraryName?: string;
  /** Masked: the last four characters only. */
  card: string;
  action: ActionKind | LogAuditKind | ZoneChangeKind;
  /** A number, or an episode's string id as the service gave it. */
  contentId: ContentId;
  /** Kept only while the policy allows titles (actionLogTitles, on unless IT turns it off). */
  title?: string;
  /** `ok`, or the error code staff saw. */
  outcome: string;
  /** True when a lost answer was settled by re-reading the patron's account. */
  confirmedByReread?: boolean;
  /** A reading or export of the log: the filter it used (libraryId, card and contentId are then empty). */
  filter?: ActionFilter;
  /** A time zone change: the zone the desk last saw (none when its record was missing) and the one it found. */
  zone?: { from?: string; to: string };
}

/** Done, or refused/failed (any other outcome). */
export const ACTION_OUTCOME_FILTERS = ['ok', 'failed'] as const;
export type ActionOutcomeFilter = (typeof ACTION_OUTCOME_FILTERS)[number];

export interface ActionFilter {
  cardEnding?: string | undefined;
  staff?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  outcome?: ActionOutcomeFilter | undefined;
}
