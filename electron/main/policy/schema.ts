// What library IT may put in the machine policy (registry key, managed preferences or /etc
// file, each read into this one shape). As Chrome does with policy names it does not know, a
// top-level setting this version does not know is set aside and listed (load.ts): a newer
// template must not lock out an older desk. Inside a known setting every object is strict: a
// typo there is a known setting with a value this desk cannot read whole, and refuses the policy.
// A password can never be "managed" here (credentials stay in each PC's keychain). A managed
// profile is checked by the same rules as a profile saved in the app, so a policy cannot preset
// what staff could not type.
import { z } from 'zod';
import { CHECK_DIGITS, CODABAR_KIND, CODABAR_LENGTH } from '../../shared/card-rules.ts';
import { STAFF_ROLES } from '../../shared/staff.ts';
import { pinHashProblem } from '../../node/pin/pin-hash-format.ts';
import { connectionProfileSchema, type ConnectionProfile } from '../settings/schema.ts';
import { libraryMirrorPolicySchema } from './library-mirror-policy.ts';
import { libraryServerPolicySchema } from './library-server-policy.ts';
import { policyProblem, type PolicyProblem } from './problem.ts';

export const POLICY_VERSION = 1;
export const UPDATE_MODES = ['auto', 'it-managed', 'off'] as const;
export type UpdateMode = (typeof UPDATE_MODES)[number];

const SECRET_LIKE_KEY = /pass|secret|token|credential|auth|api.?key|cookie/i;
/** pin, deskPin, staffPin…: a PIN in plain text where only its hash belongs. */
const PLAIN_PIN_KEY = /(^|[a-z])pin$/i;

/** A setting name that looks like a credential: refused even where unknown names are set aside (a secret in a file every local user can read must be said out loud). */
export function looksLikeCredential(name: string): 'pin' | 'credential' | undefined {
  if (PLAIN_PIN_KEY.test(name)) return 'pin';
  return SECRET_LIKE_KEY.test(name) ? 'credential' : undefined;
}

/**
 * A profile as written in the policy: `kind` may be left out, since a managed profile is always a
 * partner one. The settings schema's issues are passed on with their paths, so an unknown field
 * in a profile is reported like any other unknown field.
 */
const managedProfileSchema = z.unknown().transform((value, context): ConnectionProfile => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    context.addIssue({ code: 'custom', message: 'A managed profile must be an object.' });
    return z.NEVER;
  }
  const { kind = 'partner', ...rest } = value as Record<string, unknown>;
  if (kind !== 'partner') {
    context.addIssue({ code: 'custom', path: ['kind'], message: "A managed profile is always kind 'partner' (the sandbox is governed by sandboxOffered)." });
    return z.NEVER;
  }
  const parsed = connectionProfileSchema.safeParse({ ...rest, kind });
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) context.addIssue({ ...issue });
  return z.NEVER;
});

const UPDATE_URL_RULE = 'updates.url must be an https:// address without user name, password, query or fragment.';

/** Also checked again where the updater is pointed at it (electron/main/app/updates.ts). */
export function isAcceptableUpdateUrl(value: string): boolean {
  if (/[?#]/.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && !url.username && !url.password;
}

const updatesSchema = z
  .strictObject({
    mode: z.enum(UPDATE_MODES, { error: `updates.mode must be one of ${UPDATE_MODES.map((mode) => `'${mode}'`).join(', ')}.` }),
    url: z.string({ error: UPDATE_URL_RULE }).refine(isAcceptableUpdateUrl, { error: UPDATE_URL_RULE }).optional(),
  }, { error: (issue) => (issue.code === 'invalid_type' ? 'updates must be an object.' : undefined) })
  .superRefine((updates, context) => {
    if (updates.mode === 'auto' && updates.url === undefined) {
      context.addIssue({ code: 'custom', path: ['url'], message: "updates.url is required when updates.mode is 'auto'." });
    }
  });

const IDLE_LOCK_RULE = 'idleLockMinutes must be a whole number of minutes from 1 to 240.';
const ROLE_RULE = (at: string) => `${at} must be one of ${STAFF_ROLES.map((role) => `'${role}'`).join(', ')}.`;

// ---- the shared desk (issue #13): who may unlock it, and what the action log keeps ----
export const MAX_RETENTION_DAYS = 365;
const RETENTION_RULE = `actionLogRetentionDays must be a whole number of days from 0 (keep no action log) to ${MAX_RETENTION_DAYS}.`;
const STAFF_NAME_RULE = 'staffPins[].name must be 1 to 60 characters without control characters.';
const DESK_PIN_NAME_RULE = 'deskPinNames[] must each be 1 to 60 characters without control characters.';

/** One member of staff: the name they type at the lock screen and their PIN's scrypt hash (never the PIN). */
const staffPinSchema = z.strictObject({
  name: z.string({ error: STAFF_NAME_RULE }).trim().min(1, { error: STAFF_NAME_RULE }).max(60, { error: STAFF_NAME_RULE })
    .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), { error: STAFF_NAME_RULE }),
  pinHash: z.string({ error: 'staffPins[].pinHash must be text.' }).superRefine((hash, context) => {
    const problem = pinHashProblem(hash);
    if (problem) context.addIssue({ code: 'custom', message: `pinHash ${problem}` });
  }),
  /** `manager` may look the action log up by card, export it and replace the library mirror's password (issue #35); `desk` (the default) may not. */
  role: z.enum(STAFF_ROLES, { error: ROLE_RULE('staffPins[].role') }).optional(),
}, { error: (issue) => (issue.code === 'invalid_type' ? 'Each of staffPins must be an object with name and pinHash.' : undefined) });

// ---- the desk as staff use it (issue #35): each library's name, cards and item barcodes; recent patrons; the desk PIN's staff ----
export const MAX_RECENT_PATRONS = 10;
const RECENT_RULE = `recentPatrons must be a whole number from 0 (no recent patrons) to ${MAX_RECENT_PATRONS}.`;
const LIBRARY_RULE = 'Each of libraries must be an object with libraryId, and optionally name, cards and items.';

/** A library's cards or item barcodes: what they start with, how long they are, their check digit. */
function barcodeRuleSchema(field: 'cards' | 'items') {
  const at = `libraries[].${field}`;
  return z.strictObject({
    prefix: z.string({ error: `${at}.prefix must be text.` }).regex(/^[0-9A-Za-z]{1,20}$/, { error: `${at}.prefix must be 1 to 20 letters or digits.` }).optional(),
    length: z.number({ error: `${at}.length must be a whole number from 1 to 64.` }).int({ error: `${at}.length must be a whole number from 1 to 64.` })
      .min(1, { error: `${at}.length must be a whole number from 1 to 64.` }).max(64, { error: `${at}.length must be a whole number from 1 to 64.` }).optional(),
    checkDigit: z.enum(CHECK_DIGITS, { error: `${at}.checkDigit must be one of ${CHECK_DIGITS.map((c) => `'${c}'`).join(', ')}.` }).optional(),
  }, { error: (issue) => (issue.code === 'invalid_type' ? `${at} must be an object with prefix, length or checkDigit.` : undefined) }).superRefine((rule, context) => {
    if (rule.prefix !== undefined && rule.length !== undefined && rule.prefix.length > rule.length) {
      context.addIssue({ code: 'custom', path: ['prefix'], message: `${at}.prefix is longer than ${at}.length.` });
    }
    if (rule.checkDigit !== 'codabar') return;
    if (rule.length !== undefined && rule.length !== CODABAR_LENGTH) {
      context.addIssue({ code: 'custom', path: ['length'], message: `${at}.length must be ${CODABAR_LENGTH} (or left out) with the Codabar check digit.` });
    }
    if (rule.prefix !== undefined && !rule.prefix.startsWith(CODABAR_KIND[field])) {
      context.addIssue({ code: 'custom', path: ['prefix'], message: `${at}.prefix must start with ${CODABAR_KIND[field]} with the Codabar check digit (${CODABAR_KIND.cards} on a patron's card, ${CODABAR_KIND.items} on an item).` });
    }
  });
}

const libraryPolicySchema = z.strictObject({
  libraryId: z.number({ error: 'libraries[].libraryId must be a positive whole number.' }).int({ error: 'libraries[].libraryId must be a positive whole number.' })
    .positive({ error: 'libraries[].libraryId must be a positive whole number.' }),
  /** What staff read on every screen instead of the library's number. */
  name: z.string({ error: 'libraries[].name must be 1 to 80 characters.' }).trim().min(1, { error: 'libraries[].name must be 1 to 80 characters.' })
    .max(80, { error: 'libraries[].name must be 1 to 80 characters.' }).refine((name) => !/[\u0000-\u001f\u007f]/.test(name), { error: 'libraries[].name must have no control characters.' }).optional(),
  cards: barcodeRuleSchema('cards').optional(),
  items: barcodeRuleSchema('items').optional(),
}, { error: (issue) => (issue.code === 'invalid_type' ? LIBRARY_RULE : undefined) });

// ---- the catalog (issue #24): the full entitlement pass, which finds removals no delta marks ----
export const MAX_FULL_PASS_DAYS = 90;
const FULL_PASS_RULE = `entitlementFullPassDays must be a whole number of days from 1 to ${MAX_FULL_PASS_DAYS}.`;
// ---- the catalog refresh (issue #34): the catalog's and holdings' deltas on the desk's own schedule ----
export const MAX_CATALOG_REFRESH_DAYS = 30;
const CATALOG_REFRESH_RULE = `catalogRefreshDays must be a whole number of days from 1 to ${MAX_CATALOG_REFRESH_DAYS}.`;

// ---- what stays on the desk holds (issue #33): whom it trusts on the wire, its day, its longest shift ----
const INSPECTION_CA_RULE = 'tlsInspectionCa must be a list of 1 to 20 SHA-256 certificate fingerprints (64 hexadecimal digits, colons allowed), as `openssl x509 -noout -fingerprint -sha256` prints them.';
const TIME_ZONE_RULE = 'actionLogTimeZone must be a time zone name such as America/Toronto.';
export const MAX_SHIFT_HOURS = 24;
const MAX_SHIFT_RULE = `maxShiftHours must be a whole number of hours from 1 to ${MAX_SHIFT_HOURS}.`;

export function isSha256Fingerprint(text: string): boolean {
  return /^(?:[0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$/.test(text.trim());
}

/** A zone this desk's time library knows (IANA names: America/Toronto, Europe/Paris, UTC). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Names are matched as staff type them: case, accents composed either way and repeated spaces do not matter. */
export function staffNameKey(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');
}

export const policySchema = z
  .strictObject({
    version: z.literal(POLICY_VERSION, { error: `version must be ${POLICY_VERSION}.` }).default(POLICY_VERSION),
    profiles: z.array(managedProfileSchema, { error: 'profiles must be a list.' })
      .min(1, { error: 'profiles, when present, must name at least one profile.' })
      .optional(),
    idleLockMinutes: z.number({ error: IDLE_LOCK_RULE }).int({ error: IDLE_LOCK_RULE }).min(1, { error: IDLE_LOCK_RULE }).max(240, { error: IDLE_LOCK_RULE }).optional(),
    sandboxOffered: z.boolean({ error: 'sandboxOffered must be true or false.' }).optional(),
    updates: updatesSchema.optional(),
    staffPins: z.array(staffPinSchema, { error: 'staffPins must be a list.' })
      .min(1, { error: 'staffPins, when present, must name at least one member of staff.' })
      .max(500, { error: 'staffPins may name at most 500 members of staff.' })
      .optional(),
    actionLogRetentionDays: z.number({ error: RETENTION_RULE }).int({ error: RETENTION_RULE }).min(0, { error: RETENTION_RULE }).max(MAX_RETENTION_DAYS, { error: RETENTION_RULE }).optional(),
    actionLogTitles: z.boolean({ error: 'actionLogTitles must be true or false.' }).optional(),
    /** false: staff cannot add, re-address or remove connections (issue #21); credentials can still be replaced. */
    profileEditing: z.boolean({ error: 'profileEditing must be true or false.' }).optional(),
    entitlementFullPassDays: z.number({ error: FULL_PASS_RULE }).int({ error: FULL_PASS_RULE }).min(1, { error: FULL_PASS_RULE }).max(MAX_FULL_PASS_DAYS, { error: FULL_PASS_RULE }).optional(),
    catalogRefreshDays: z.number({ error: CATALOG_REFRESH_RULE }).int({ error: CATALOG_REFRESH_RULE }).min(1, { error: CATALOG_REFRESH_RULE }).max(MAX_CATALOG_REFRESH_DAYS, { error: CATALOG_REFRESH_RULE }).optional(),
    /** The library system's shared mirror (issue #25): the desk fills its Collection from it, not from the partner. */
    libraryMirror: libraryMirrorPolicySchema.optional(),
    // ---- what stays on the desk holds (issue #33) ----
    /** The CAs (SHA-256 fingerprints) the library's TLS-inspecting proxy or its own server signs with: the only private roots the desk accepts. */
    tlsInspectionCa: z.array(z.string({ error: INSPECTION_CA_RULE }).refine(isSha256Fingerprint, { error: INSPECTION_CA_RULE }), { error: INSPECTION_CA_RULE })
      .min(1, { error: INSPECTION_CA_RULE }).max(20, { error: INSPECTION_CA_RULE }).optional(),
    /** Where the action log's days begin and end (an IANA zone); without it, the zone this desk had when it was set up. */
    actionLogTimeZone: z.string({ error: TIME_ZONE_RULE }).refine(isTimeZone, { error: TIME_ZONE_RULE }).optional(),
    /** The longest a shift stays open, whatever the activity (a mouse jiggler keeps the idle lock away, not this); 12 without it. */
    maxShiftHours: z.number({ error: MAX_SHIFT_RULE }).int({ error: MAX_SHIFT_RULE }).min(1, { error: MAX_SHIFT_RULE }).max(MAX_SHIFT_HOURS, { error: MAX_SHIFT_RULE }).optional(),
    /** Each library's name, card rules and item barcodes (issue #35): a scan that breaks them is refused before any request. */
    libraries: z.array(libraryPolicySchema, { error: 'libraries must be a list.' }).min(1, { error: 'libraries, when present, must name at least one library.' })
      .max(100, { error: 'libraries may name at most 100 libraries.' }).optional(),
    /** How many recent patrons' chips the card field keeps during a shift (0, the default: none). */
    recentPatrons: z.number({ error: RECENT_RULE }).int({ error: RECENT_RULE }).min(0, { error: RECENT_RULE }).max(MAX_RECENT_PATRONS, { error: RECENT_RULE }).optional(),
    /** The role of a shift signed in with the shared desk PIN (`desk` unless IT says `manager`: a one-person branch). */
    deskPinRole: z.enum(STAFF_ROLES, { error: ROLE_RULE('deskPinRole') }).optional(),
    /** The names staff may choose from when they sign in with the shared desk PIN; otherwise the log says "desk PIN", never free text. */
    deskPinNames: z.array(z.string({ error: DESK_PIN_NAME_RULE }).trim().min(1, { error: DESK_PIN_NAME_RULE }).max(60, { error: DESK_PIN_NAME_RULE })
      .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), { error: DESK_PIN_NAME_RULE }), { error: 'deskPinNames must be a list of names.' })
      .min(1, { error: 'deskPinNames, when present, must name at least one member of staff.' }).max(500, { error: 'deskPinNames may name at most 500 members of staff.' }).optional(),
    /** The library's server (issue #31): every partner call of this desk goes through it; the desk holds no partner credential. */
    libraryServer: libraryServerPolicySchema.optional(),
  }, { error: (issue) => (issue.code === 'invalid_type' ? 'The policy must be a JSON object.' : undefined) })
  .superRefine((policy, context) => {
    const ids = (policy.profiles ?? []).map((profile) => profile.id);
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated !== undefined) context.addIssue({ code: 'custom', path: ['profiles'], message: `Profile id "${repeated}" appears more than once.` });
    const names = (policy.staffPins ?? []).map((staff) => staffNameKey(staff.name));
    const twice = names.find((name, index) => names.indexOf(name) !== index);
    if (twice !== undefined) context.addIssue({ code: 'custom', path: ['staffPins'], message: `Staff name "${twice}" appears more than once.` });
    const libraryIds = (policy.libraries ?? []).map((library) => library.libraryId);
    const again = libraryIds.find((libraryId, index) => libraryIds.indexOf(libraryId) !== index);
    if (again !== undefined) context.addIssue({ code: 'custom', path: ['libraries'], message: `Library ${again} appears more than once in libraries.` });
    const listed = (policy.deskPinNames ?? []).map(staffNameKey);
    const listedTwice = listed.find((name, index) => listed.indexOf(name) !== index);
    if (listedTwice !== undefined) context.addIssue({ code: 'custom', path: ['deskPinNames'], message: `Staff name "${listedTwice}" appears more than once in deskPinNames.` });
  });

export type Policy = z.output<typeof policySchema>;

/** The top-level settings this version knows; any other is set aside and listed (load.ts). */
export const POLICY_SETTING_NAMES: readonly string[] = Object.keys(policySchema.shape);
export type UpdatesPolicy = NonNullable<Policy['updates']>;
export type StaffPin = NonNullable<Policy['staffPins']>[number];
export type LibraryPolicy = NonNullable<Policy['libraries']>[number];

/** The first problem as a reason for "policy ignored: …", naming its field the way the source spells it (e.g. profiles[0].baseUrl). */
export function policyIssue(error: z.ZodError, source: string): PolicyProblem {
  // A PIN written in plain text is named first, whatever else is wrong beside it.
  for (const unknown of error.issues) {
    if (unknown.code !== 'unrecognized_keys') continue;
    const key = unknown.keys.find((name) => PLAIN_PIN_KEY.test(name));
    const at = fieldName(unknown.path);
    if (key !== undefined) return policyProblem('policy.plain-pin', { source, setting: at ? `${at}.${key}` : key });
  }
  const issue = error.issues[0];
  const field = issue ? fieldName(issue.path) : '';
  if (issue?.code === 'unrecognized_keys') {
    const fields = issue.keys.map((key) => (field ? `${field}.${key}` : key));
    const secret = fields.find((name) => SECRET_LIKE_KEY.test(name.slice(name.lastIndexOf('.') + 1)));
    if (secret !== undefined) return policyProblem('policy.credential-field', { source, setting: secret });
    return policyProblem('policy.unknown-field', { source, setting: fields.join(', ') });
  }
  const rule = issue?.message ?? 'The policy is not valid.';
  return policyProblem('policy.invalid-value', { source, setting: field || '(root)', rule: rule.endsWith('.') ? rule : `${rule}.` });
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}
