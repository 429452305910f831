// What library IT may put in the machine policy (registry key, managed preferences or /etc
// file, each read into this one shape). As Chrome does with policy names it does not know, a
// top-level setting this version does not know is set aside and listed (load.ts): a newer
// template must not lock out an older desk. Inside a known setting every object is strict: a
// typo there is a known setting with a value this desk cannot read whole, and refuses the policy.
// A password can never be "managed" here (credentials stay in each PC's keychain). A managed
// profile is checked by the same rules as a profile saved in the app, so a policy cannot preset
// what staff could not type.
import { z } from 'zod';
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

// ---- the shared desk (issue #13): who may unlock it, and what the action log keeps ----
export const MAX_RETENTION_DAYS = 365;
const RETENTION_RULE = `actionLogRetentionDays must be a whole number of days from 0 (keep no action log) to ${MAX_RETENTION_DAYS}.`;
const STAFF_NAME_RULE = 'staffPins[].name must be 1 to 60 characters without control characters.';

/** One member of staff: the name they type at the lock screen and their PIN's scrypt hash (never the PIN). */
const staffPinSchema = z.strictObject({
  name: z.string({ error: STAFF_NAME_RULE }).trim().min(1, { error: STAFF_NAME_RULE }).max(60, { error: STAFF_NAME_RULE })
    .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), { error: STAFF_NAME_RULE }),
  pinHash: z.string({ error: 'staffPins[].pinHash must be text.' }).superRefine((hash, context) => {
    const problem = pinHashProblem(hash);
    if (problem) context.addIssue({ code: 'custom', message: `pinHash ${problem}` });
  }),
}, { error: (issue) => (issue.code === 'invalid_type' ? 'Each of staffPins must be an object with name and pinHash.' : undefined) });

// ---- the catalog (issue #24): the full entitlement pass, which finds removals no delta marks ----
export const MAX_FULL_PASS_DAYS = 90;
const FULL_PASS_RULE = `entitlementFullPassDays must be a whole number of days from 1 to ${MAX_FULL_PASS_DAYS}.`;
// ---- the catalog refresh (issue #34): the catalog's and holdings' deltas on the desk's own schedule ----
export const MAX_CATALOG_REFRESH_DAYS = 30;
const CATALOG_REFRESH_RULE = `catalogRefreshDays must be a whole number of days from 1 to ${MAX_CATALOG_REFRESH_DAYS}.`;

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
  });

export type Policy = z.output<typeof policySchema>;

/** The top-level settings this version knows; any other is set aside and listed (load.ts). */
export const POLICY_SETTING_NAMES: readonly string[] = Object.keys(policySchema.shape);
export type UpdatesPolicy = NonNullable<Policy['updates']>;
export type StaffPin = NonNullable<Policy['staffPins']>[number];

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
