// What a desk's settings file may hold. Every object is strict: an unknown key is refused
// rather than kept, which is what stops a password or token from ever landing in this
// plaintext file. Each rule carries the message staff (or library IT) will read.
import { z } from 'zod';
import { REASONS, type Reason } from '../../shared/reasons.ts';
import { isLoopbackHost } from '../../shared/text-rules.ts';

const COUNTRIES = ['US', 'CA', 'AU', 'NZ'] as const;
const MAX_LIBRARIES = 20;

// The rules staff can break by what they type (a profile, a preference) have their sentence in
// shared/reasons.ts, so a refusal carries the reason the renderer translates; the English is the
// same for the log, the settings file problem and the policy file problem.
const LIBRARY_ID_RULE = REASONS['settings.library-id'];

const libraryRefSchema = z.strictObject({
  libraryId: z.number({ error: LIBRARY_ID_RULE }).int({ error: LIBRARY_ID_RULE }).positive({ error: LIBRARY_ID_RULE }),
  name: z.string({ error: 'Library name must be text.' }).max(80, { error: REASONS['settings.library-name-long'] }).optional(),
});

const BASE_URL_RULE = REASONS['settings.service-address'];

function isAcceptableBaseUrl(value: string): boolean {
  // A query or fragment would be silently mangled when paths are appended; credentials in a
  // URL would be plaintext in this file.
  if (/[?#]/.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

export const connectionProfileSchema = z
  .strictObject({
    id: z.string({ error: 'Profile id must be text.' })
      .regex(/^[a-z0-9-]{1,40}$/, { error: REASONS['settings.profile-id'] }),
    name: z.string({ error: 'Profile name must be text.' })
      .trim()
      .min(1, { error: REASONS['settings.profile-name-empty'] })
      .max(80, { error: REASONS['settings.profile-name-long'] }),
    kind: z.enum(['sandbox', 'partner'], { error: "Profile kind must be 'sandbox' or 'partner'." }),
    // The sandbox's address is chosen when it starts, so a sandbox profile's is ignored.
    baseUrl: z.string({ error: BASE_URL_RULE }).trim().max(2000, { error: BASE_URL_RULE }),
    libraries: z.array(libraryRefSchema, { error: 'Libraries must be a list.' })
      .max(MAX_LIBRARIES, { error: REASONS['settings.too-many-libraries'] }),
    wsApi: z.string({ error: 'ws-api version must be text.' }).trim().max(10, { error: REASONS['settings.ws-api-long'] }).default('2.1'),
    country: z.enum(COUNTRIES, { error: REASONS['settings.country'] }),
    // Where the mirror comes from: the global catalog plus entitlements (the spec's
    // recipe), or the library content endpoint for services that offer only that.
    catalogSource: z.enum(['global+entitlements', 'library-content'], { error: "Catalog source must be 'global+entitlements' or 'library-content'." }).optional(),
  }, { error: (issue) => (issue.code === 'invalid_type' ? 'A connection profile must be an object.' : undefined) })
  .superRefine((profile, context) => {
    if (profile.kind === 'partner' && !isAcceptableBaseUrl(profile.baseUrl)) {
      context.addIssue({ code: 'custom', path: ['baseUrl'], message: BASE_URL_RULE });
    }
    // The sandbox profile may start with none: they are filled from the running sandbox.
    if (profile.kind === 'partner' && profile.libraries.length === 0) {
      context.addIssue({ code: 'custom', path: ['libraries'], message: REASONS['settings.needs-library'] });
    }
    const ids = profile.libraries.map((library) => library.libraryId);
    if (new Set(ids).size !== ids.length) {
      context.addIssue({ code: 'custom', path: ['libraries'], message: REASONS['settings.library-repeated'] });
    }
  });

const windowStateSchema = z.strictObject(
  {
    x: z.number({ error: 'Window position must be whole numbers.' }).int({ error: 'Window position must be whole numbers.' }).optional(),
    y: z.number({ error: 'Window position must be whole numbers.' }).int({ error: 'Window position must be whole numbers.' }).optional(),
    width: z.number({ error: 'Window width must be at least 800 pixels.' }).int({ error: 'Window width must be a whole number.' }).min(800, { error: 'Window width must be at least 800 pixels.' }),
    height: z.number({ error: 'Window height must be at least 600 pixels.' }).int({ error: 'Window height must be a whole number.' }).min(600, { error: 'Window height must be at least 600 pixels.' }),
    maximized: z.boolean({ error: 'Window maximized must be true or false.' }),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'Window state must be an object.' : undefined) },
);

const IDLE_LOCK_RULE = REASONS['settings.idle-lock'];

export const DEFAULT_WINDOW = { width: 1280, height: 800, maximized: false } as const;

export const deskSettingsSchema = z
  .strictObject({
    version: z.number({ error: 'Settings version must be a positive whole number.' }).int({ error: 'Settings version must be a positive whole number.' }).positive({ error: 'Settings version must be a positive whole number.' }),
    profiles: z.array(connectionProfileSchema, { error: 'Profiles must be a list.' }),
    activeProfileId: z.string({ error: 'Active profile must be a profile id or none.' }).nullable().default(null),
    idleLockMinutes: z.number({ error: IDLE_LOCK_RULE }).int({ error: IDLE_LOCK_RULE }).min(1, { error: IDLE_LOCK_RULE }).max(240, { error: IDLE_LOCK_RULE }).default(5),
    language: z.enum(['en', 'fr-CA'], { error: REASONS['settings.language'] }).default('en'),
    window: windowStateSchema.default({ ...DEFAULT_WINDOW }),
  })
  .superRefine((settings, context) => {
    const ids = settings.profiles.map((profile) => profile.id);
    if (new Set(ids).size !== ids.length) {
      context.addIssue({ code: 'custom', path: ['profiles'], message: 'Each profile id may appear only once.' });
    }
    if (settings.activeProfileId !== null && !ids.includes(settings.activeProfileId)) {
      context.addIssue({ code: 'custom', path: ['activeProfileId'], message: `Active profile "${settings.activeProfileId}" is not one of the saved profiles.` });
    }
  });

export type LibraryRef = z.output<typeof libraryRefSchema>;
export type ConnectionProfile = z.output<typeof connectionProfileSchema>;
export type WindowState = z.output<typeof windowStateSchema>;
export type DeskSettings = z.output<typeof deskSettingsSchema>;

// Keys that suggest someone is trying to put a credential in the file: the refusal says
// where secrets go instead of just "unknown key".
const SECRET_LIKE_KEY = /pass|secret|token|credential|auth|api.?key|cookie/i;

/** The first problem, in words that name the field. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The settings are not valid.';
  if (issue.code === 'unrecognized_keys') {
    const where = issue.path.includes('profiles') ? 'A connection profile' : 'Settings';
    const secret = issue.keys.find((key) => SECRET_LIKE_KEY.test(key));
    if (secret !== undefined) {
      return `${where} cannot hold "${secret}": passwords and tokens are kept only in the system keychain.`;
    }
    return `${where} has an unknown field "${issue.keys.join('", "')}".`;
  }
  // The messages written above are sentences that name their field. zod's own (no full stop)
  // would not say which field, so they get the path.
  if (issue.message.endsWith('.')) return issue.message;
  return `${issue.path.map(String).join('.') || 'Settings'}: ${issue.message}.`;
}

const SETTINGS_REASONS = new Map(
  (Object.keys(REASONS) as Reason[]).filter((reason) => reason.startsWith('settings.')).map((reason) => [REASONS[reason] as string, reason]),
);

/** The reason staff are shown for the first problem: the rule's own, or that a value is not valid. */
export function reasonOfIssue(error: z.ZodError): Reason {
  return SETTINGS_REASONS.get(error.issues[0]?.message ?? '') ?? 'settings.not-valid';
}
