// A card not known at this library, tried at the profile's other libraries through the
// contract (dispatch, as main's registry calls it), against the built-in sandbox: which
// library knows it, which does not, which could not be asked; and what the contract refuses.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CardElsewhere, Result } from '../../../../electron/shared/contract.ts';
import { inProcessSandbox } from '../../../../electron/main/connection/sandbox-endpoint.ts';
import { createKeytarVault } from '../../../../electron/main/credentials/index.ts';
import type { DeskService } from '../../../../electron/main/desk/desk-service.ts';
import { dispatch } from '../../../../electron/main/ipc/dispatch.ts';
import { createSandboxService, type SandboxService } from '../../../../electron/main/sandbox/server.ts';
import { sandboxDeskOnShift } from '../../../support/node-desk.ts';

let dir: string;
let desk: DeskService;
let sandbox: SandboxService | undefined;
let closeLog: () => void;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'find-card-'));
  ({ desk, closeLog } = await sandboxDeskOnShift({
    dir,
    vault: createKeytarVault({ service: `Lending Desk unit ${randomUUID()}` }),
    sandbox: async () => inProcessSandbox((sandbox = createSandboxService({ catalogSize: 800 }))),
    clientOptions: { sleep: async () => {}, timeoutMs: 3000 },
  }));
});

afterEach(async () => {
  await desk.close();
  closeLog();
  rmSync(dir, { recursive: true, force: true });
});

const find = (args: unknown) => dispatch(desk, 'findCardElsewhere', args) as Promise<Result<CardElsewhere[]>>;

describe('findCardElsewhere', () => {
  it("names the other library that knows the card, and says the rest do not (this library is not asked again)", async () => {
    const result = await find({ libraryId: 101, card: '2120200002' });
    expect(result).toEqual({ ok: true, value: [{ libraryId: 202, known: true }, { libraryId: 303, known: false }] });
    const nowhere = await find({ libraryId: 101, card: '9999999999' });
    expect(nowhere).toEqual({ ok: true, value: [{ libraryId: 202, known: false }, { libraryId: 303, known: false }] });
  });

  it('says which libraries could not be asked, with the error, instead of calling them unknown', async () => {
    sandbox!.control.addFault({ route: 'status', kind: 'server-error', status: 503 });
    const result = await find({ libraryId: 101, card: '2120200002' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.map((r) => [r.libraryId, r.known, r.error?.code])).toEqual([[202, false, 'server'], [303, false, 'server']]);
  });

  it('refuses a card the contract refuses, a library outside the profile, and a locked desk', async () => {
    for (const card of ['..', '2120\u00072', '', 'x'.repeat(65)]) {
      const refused = await find({ libraryId: 101, card });
      expect(refused.ok, JSON.stringify(card)).toBe(false);
      if (!refused.ok) expect(refused.error.code).toBe('invalid-input');
    }
    const elsewhere = await find({ libraryId: 999, card: '2120200002' });
    expect(elsewhere).toMatchObject({ ok: false, error: { code: 'invalid-input', reason: 'connection.library-not-in-profile' } });
    await dispatch(desk, 'lockSession', { reason: 'staff' });
    expect(await find({ libraryId: 101, card: '2120200002' })).toMatchObject({ ok: false, error: { code: 'session-locked' } });
  });
});
