// What library IT may put in the machine-wide policy file. Every object is strict: a typo in a
// field name is reported instead of silently locking nothing, and a password can never be
// "managed" here (credentials stay in each PC's keychain). A managed profile is checked by the
// same rules as a profile saved in the app, so a policy cannot preset what staff could not type.
import { z } from 'zod';
import { connectionProfileSchema, type ConnectionProfile } from '../settings/schema.ts';

export const POLICY_VERSION = 1;
export const UPDATE_MODES = ['auto', 'it-managed', 'off'] as const;
export type UpdateMode = (typeof UPDATE_MODES)[number];

const SECRET_LIKE_KEY = /pass|secret|token|credential|auth|api.?key|cookie/i;

/** A profile as written in the policy: `kind` may be left out, since a managed profile is always a partner one. */
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
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const secret = issue.keys.find((key) => SECRET_LIKE_KEY.test(key));
      context.addIssue({
        code: 'custom',
        path: issue.path,
        message: secret === undefined
          ? `A managed profile has an unknown field "${issue.keys.join('", "')}".`
          : `A managed profile cannot hold "${secret}": credentials are entered on each PC and kept in its keychain.`,
      });
    } else {
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  }
  return z.NEVER;
});

const UPDATE_URL_RULE = 'updates.url must be an https:// address without user name, password, query or fragment.';

function isAcceptableUpdateUrl(value: string): boolean {
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

export const policySchema = z
  .strictObject({
    version: z.literal(POLICY_VERSION, { error: `version must be ${POLICY_VERSION}.` }).default(POLICY_VERSION),
    profiles: z.array(managedProfileSchema, { error: 'profiles must be a list.' })
      .min(1, { error: 'profiles, when present, must name at least one profile.' })
      .optional(),
    idleLockMinutes: z.number({ error: IDLE_LOCK_RULE }).int({ error: IDLE_LOCK_RULE }).min(1, { error: IDLE_LOCK_RULE }).max(240, { error: IDLE_LOCK_RULE }).optional(),
    sandboxOffered: z.boolean({ error: 'sandboxOffered must be true or false.' }).optional(),
    updates: updatesSchema.optional(),
  }, { error: (issue) => (issue.code === 'invalid_type' ? 'The policy must be a JSON object.' : undefined) })
  .superRefine((policy, context) => {
    const ids = (policy.profiles ?? []).map((profile) => profile.id);
    const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
    if (repeated !== undefined) context.addIssue({ code: 'custom', path: ['profiles'], message: `Profile id "${repeated}" appears more than once.` });
  });

export type Policy = z.output<typeof policySchema>;
export type UpdatesPolicy = NonNullable<Policy['updates']>;

/** The first problem, naming its field the way the file spells it (e.g. profiles[0].baseUrl). */
export function describePolicyIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The policy is not valid.';
  const field = issue.path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
  if (issue.code === 'unrecognized_keys') {
    const secret = issue.keys.find((key) => SECRET_LIKE_KEY.test(key));
    const where = field || 'The policy';
    if (secret !== undefined) return `${where} cannot hold "${secret}": credentials are entered on each PC and kept in its keychain.`;
    return `${where} has an unknown field "${issue.keys.join('", "')}".`;
  }
  // Messages written above already start with their field; zod's and the settings' do not.
  const text = field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message;
  return text.endsWith('.') ? text : `${text}.`;
}
