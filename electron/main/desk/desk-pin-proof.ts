// What setting or changing the desk PIN takes, decided from what no file edit can forge: IT's
// policy, the connections the keychain says this desk set up (connection-records.ts) and the
// sign-in record (sign-in-record.ts). Proof comes from something that existed before this shift:
// - on a desk with partner connections: the partner password of one saved before the current
//   shift began (or before any shift), or of one IT's policy presets — never of one added or
//   re-addressed in this shift, which is what a colleague could mint on the spot;
// - on a sandbox-only desk: the current PIN, or nothing for the first one;
// - on a desk whose sign-in record was lost: any connection it had set up, or (sandbox-only)
//   nothing but the wait.
import type { CredentialVault, SavedCredentials } from '../credentials/vault.ts';
import type { ConnectionProfile } from '../settings/index.ts';
import type { ConnectionRecord } from './connection-records.ts';
import type { SignInStatus } from './staff-sign-in.ts';

/** A connection whose partner password may prove: its id and name, and the policy's profile when IT presets it (a password not saved yet is then checked with the service at IT's address). */
export interface ProofConnection { profileId: string; name: string; preset?: ConnectionProfile }

export type DeskPinProof =
  | { kind: 'policy-refused' }
  | { kind: 'policy' }
  | { kind: 'partner-password'; connection: ProofConnection; saved: SavedCredentials | undefined }
  /** Partner connections exist, but each was added or re-addressed in this shift. */
  | { kind: 'next-shift'; profile: string }
  /** Connections that could prove exist, but none has its password saved here and none is IT's: only IT can open the desk. */
  | { kind: 'it' }
  | { kind: 'current-pin' }
  | { kind: 'nothing' };

export interface ProofInputs {
  policyRefused: boolean;
  status: SignInStatus;
  records: ReadonlyMap<string, ConnectionRecord>;
  /** The desk's profiles with the policy laid over, the active one's id, and which are IT's. */
  profiles: readonly ConnectionProfile[];
  activeProfileId: string | null;
  presetIds: readonly string[];
  vault: CredentialVault;
  originOf: (baseUrl: string) => string;
}

/** Saved before the current shift began (or before any shift); on a desk being re-established, every one it had. */
export function existedBeforeThisShift(record: ConnectionRecord, status: SignInStatus): boolean {
  return status.reestablish !== undefined || record.shift === 0 || record.shift < status.shifts;
}

export async function deskPinProof(inputs: ProofInputs): Promise<DeskPinProof> {
  const { status, records, profiles, presetIds, vault } = inputs;
  if (inputs.policyRefused) return { kind: 'policy-refused' };
  if (status.method === 'staff-pins') return { kind: 'policy' };
  const byId = new Map(profiles.map((profile) => [profile.id, profile]));
  const presets = profiles.filter((profile) => profile.kind === 'partner' && presetIds.includes(profile.id));
  const order = [...new Set([inputs.activeProfileId ?? '', ...profiles.map((profile) => profile.id), ...records.keys()])].filter(Boolean);
  const candidates: ProofConnection[] = [];
  for (const id of order) {
    const preset = presets.find((profile) => profile.id === id);
    const record = records.get(id);
    if (preset) candidates.push({ profileId: id, name: preset.name, preset });
    else if (record && existedBeforeThisShift(record, status)) candidates.push({ profileId: id, name: byId.get(id)?.name ?? id });
  }
  for (const connection of candidates) {
    const saved = await vault.read(connection.profileId).catch(() => undefined);
    // A preset's saved password counts only for the address IT gives now.
    if (saved && (!connection.preset || saved.origin === inputs.originOf(connection.preset.baseUrl))) return { kind: 'partner-password', connection, saved };
  }
  const firstPreset = candidates.find((connection) => connection.preset);
  if (firstPreset) return { kind: 'partner-password', connection: firstPreset, saved: undefined };
  if (candidates.length > 0) return { kind: 'it' };
  const newest = [...records].sort(([, a], [, b]) => b.shift - a.shift)[0];
  if (newest) return { kind: 'next-shift', profile: byId.get(newest[0])?.name ?? newest[0] };
  return status.hasDeskPin ? { kind: 'current-pin' } : { kind: 'nothing' };
}
