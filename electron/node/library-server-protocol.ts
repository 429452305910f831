// What a desk and the library server say beside the partner's own API (issue #31, #32): the desk
// speaks the partner's paths and answers to the server, and these few words of their own travel
// with them. The desk's side is electron/main/connection/library-server-fetch.ts, the server's
// server/desk-api/.

/** The informational answer's header (a 103 before the answer): seconds a staff call is expected to wait for its turn. */
export const WAIT_HEADER = 'x-lending-desk-wait-seconds';
/** The header every staff call carries: the signed-in member of staff's session at the server. */
export const SESSION_HEADER = 'x-lending-desk-session';

/** Why the server itself refused (beside the partner's own refusals, which carry none), in a refusal's `reason`. */
export type ServerReason =
  | 'workstation-unknown' | 'workstation-revoked' | 'enrolment-code' | 'not-leading' | 'busy' | 'unreachable'
  | 'session-ended' | 'staff-wrong' | 'staff-wait' | 'staff-disabled' | 'manager-only' | 'audit-unavailable';
