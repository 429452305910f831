// The desk PIN, on a desk whose policy sets no per-staff PINs: setting or changing it with the
// proof desk-pin-proof.ts asks for (checked here: a saved partner password compared in the desk,
// IT's preset connection's against the service, the current PIN, or only the wait), and the
// sign-in view that tells the lock screen what it takes. Part of the shift area (shift-area.ts).

import { createHash, timingSafeEqual } from 'node:crypto';
import type { ParsedArgsOf, SignInView } from '../../../shared/contract.ts';
import { originOf, type Connections } from '../../connection/connections.ts';
import type { CredentialVault, SavedCredentials } from '../../credentials/vault.ts';
import type { Logger } from '../../../node/logging/logger.ts';
import { DeskError } from '../../../shared/desk-error.ts';
import type { PolicySettings } from '../../policy/index.ts';
import { pinProblem } from '../../../shared/pin-rules.ts';
import type { ConnectionRecords } from '../connection-records.ts';
import { deskPinProof, type ProofConnection } from '../desk-pin-proof.ts';
import type { StaffSignIn } from '../staff-sign-in.ts';

export interface DeskPinParts {
  signIn: StaffSignIn;
  settings: PolicySettings;
  /** A machine policy exists but was refused: nobody signs in, and no desk PIN is set. */
  policyRefused: boolean;
  /** Which partner connections this desk set up, and in which shift: what may prove the desk PIN. */
  connectionRecords: ConnectionRecords;
  vault: CredentialVault;
  /** To check a preset connection's partner password with the service, and drop its connection once saved. */
  connections: Connections;
  osUserName: () => string;
  logger: Logger;
}

export class DeskPin {
  readonly #parts: DeskPinParts;

  constructor(parts: DeskPinParts) {
    this.#parts = parts;
  }

  /**
   * The desk PIN, where the policy sets no per-staff PINs. What it takes is desk-pin-proof.ts's to
   * decide: the partner password of a connection that existed before this shift (tested against the
   * service, and saved, for IT's preset one when none is saved yet), the current PIN on a
   * sandbox-only desk, or nothing for a training desk's first PIN. The PIN itself must meet the rules.
   */
  async set(args: ParsedArgsOf<'setDeskPin'>): Promise<void> {
    const { signIn } = this.#parts;
    const proof = await this.#deskPinProof();
    if (proof.kind === 'policy-refused') throw DeskError.because('unauthorized', 'sign-in.policy-refused');
    if (proof.kind === 'policy') throw DeskError.because('invalid-input', 'pin.set-by-policy');
    const rule = pinProblem(args.pin);
    if (rule) throw DeskError.because('invalid-input', rule);
    switch (proof.kind) {
      case 'it': throw DeskError.because('unauthorized', 'pin.ask-it');
      case 'next-shift': throw DeskError.because('unauthorized', 'pin.connection-too-new', { profile: proof.profile });
      case 'partner-password':
        await this.#provePartnerPassword(proof.connection, proof.saved, args.partnerUsername, args.partnerPassword);
        break;
      case 'current-pin': {
        const current = args.currentPin;
        if (current === undefined) throw DeskError.because('invalid-input', 'pin.current-pin-needed');
        await signIn.prove('current-pin', () => signIn.isDeskPin(current), DeskError.because('unauthorized', 'pin.current-pin-wrong'));
        break;
      }
      case 'nothing':
        await signIn.refuseWhileWaiting();
    }
    const status = await signIn.status();
    // Re-established, the desk counts every connection it holds as older than the next shift.
    const shiftsAtLeast = status.reestablish ? Math.max(0, ...[...(await this.#parts.connectionRecords.all()).values()].map((r) => r.shift)) + 1 : 0;
    await signIn.setDeskPin(args.pin, shiftsAtLeast);
    this.#parts.logger.info('session.desk-pin-set', { osUser: this.#parts.osUserName(), proof: proof.kind, reestablished: status.reestablish ?? false });
  }

  async #deskPinProof() {
    const { settings, managed } = this.#parts.settings.outcome();
    return deskPinProof({
      policyRefused: this.#parts.policyRefused,
      status: await this.#parts.signIn.status(),
      records: await this.#parts.connectionRecords.all(),
      profiles: settings.profiles,
      activeProfileId: settings.activeProfileId,
      presetIds: managed.lockedProfileIds,
      vault: this.#parts.vault,
      originOf,
    });
  }

  /**
   * The typed password against the one the keychain holds for that connection (compared here,
   * never sent anywhere); for IT's preset connection with none saved yet, against the service at
   * IT's address, and saved as Settings would.
   */
  async #provePartnerPassword(connection: ProofConnection, saved: SavedCredentials | undefined, username: string | undefined, password: string | undefined): Promise<void> {
    const { signIn, connections } = this.#parts;
    const params = { profile: connection.name };
    if (password === undefined) throw DeskError.because('invalid-input', saved ? 'pin.partner-password-needed' : 'pin.partner-username-needed', params);
    const wrong = DeskError.because('unauthorized', 'pin.partner-password-wrong', params);
    if (saved) {
      await signIn.prove('partner-password', async () => sameSecret(saved.password, password), wrong);
      return;
    }
    const preset = connection.preset;
    if (!preset) throw DeskError.because('unauthorized', 'pin.ask-it');
    if (username === undefined) throw DeskError.because('invalid-input', 'pin.partner-username-needed', params);
    await signIn.prove('partner-password', async () => {
      try {
        await connections.probe(preset.baseUrl, preset.wsApi, { username, password });
        return true;
      } catch (error) {
        if (error instanceof DeskError && error.code === 'unauthorized') return false;
        throw error;
      }
    }, wrong);
    await connections.discard(preset.id);
    await this.#parts.vault.save(preset.id, { username, password }, originOf(preset.baseUrl));
    this.#parts.logger.info('connection.credentials-replaced', { profileId: preset.id });
  }

  /** How staff unlock this desk, and what setting the desk PIN takes, for the lock and shift-start screens. */
  async signInView(): Promise<SignInView> {
    const policyRefused = this.#parts.policyRefused;
    const status = await this.#parts.signIn.status();
    const view: SignInView = {
      method: status.method, ready: status.ready && !policyRefused, waitSeconds: status.waitSeconds, deskPinNeeds: 'nothing', setUp: !status.firstRun,
      ...(status.reestablish && status.method === 'desk-pin' ? { reestablish: status.reestablish } : {}),
      ...(policyRefused ? { policyRefused: true } : {}),
    };
    const proof = await this.#deskPinProof();
    switch (proof.kind) {
      case 'policy-refused': view.deskPinNeeds = 'it'; break;
      case 'partner-password':
        view.deskPinNeeds = 'partner-password';
        view.partnerProfile = proof.connection.name;
        view.partnerUsernameNeeded = proof.saved === undefined;
        break;
      case 'next-shift':
        view.deskPinNeeds = 'next-shift';
        view.partnerProfile = proof.profile;
        break;
      default: view.deskPinNeeds = proof.kind;
    }
    return view;
  }
}

/** Compared as digests so the time taken says nothing of where two passwords differ. */
function sameSecret(saved: string, typed: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(saved), digest(typed));
}
