// Who is on shift, as the renderer is told (issue #35): how they signed in, their role, and what
// that lets them do. Main's shift area decides all of it (from IT's policy today, from the library
// server's staff accounts later: issue #32); the screens only read `may`, never the role's rules.

/** `manager` reads a patron's history (the action log by card, its export) and replaces the library mirror's password. */
export const STAFF_ROLES = ['desk', 'manager'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** What the signed-in member of staff may do beyond the desk's everyday work. */
export interface StaffPermissions {
  /** Look the action log up by a card's ending: a patron's reading history. */
  readLogByCard: boolean;
  /** Export the action log (after typing their PIN again). */
  exportLog: boolean;
  /** Replace the library mirror's password in Settings, where IT's policy lets it be typed there. */
  replaceLibraryMirrorPassword: boolean;
}
