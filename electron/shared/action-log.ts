// An on-behalf action as the action log keeps it and the desk shows it. Types only.

export type ActionKind = 'borrow' | 'return' | 'place-hold' | 'remove-hold';

export interface ActionEntry {
  time: number;
  staff: string;
  profile: string;
  libraryId: number;
  /** Masked: the last four characters only. */
  card: string;
  action: ActionKind;
  contentId: number;
  title?: string;
  /** `ok`, or the error code staff saw. */
  outcome: string;
  /** True when a lost answer was settled by re-reading the patron's account. */
  confirmedByReread?: boolean;
}

