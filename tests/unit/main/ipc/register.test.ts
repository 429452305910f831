// The IPC registry with a stand-in ipcMain: exactly the contract's channels, the sender
// checked before any work, arguments parsed, errors returned as data.
import { describe, expect, it, vi, type Mock } from 'vitest';
import { METHOD_NAMES, channelOf, type DeskHandlers } from '../../../../electron/shared/contract.ts';
import { registerContract, senderCheck, type InvokeEvent } from '../../../../electron/main/ipc/register.ts';
import { DeskError } from '../../../../electron/shared/desk-error.ts';

type Listener = (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>;

function standIns() {
  const handlers = Object.fromEntries(METHOD_NAMES.map((name) => [name, vi.fn(async () => ({ called: name }))])) as unknown as DeskHandlers & Record<string, Mock>;
  const registered = new Map<string, Listener>();
  const ipcMain = { handle: (channel: string, listener: Listener) => { registered.set(channel, listener); }, removeHandler: (channel: string) => { registered.delete(channel); } };
  const ours = { id: 'our webContents' };
  const unregister = registerContract(ipcMain, handlers, senderCheck((sender) => sender === ours, ['app://desk']));
  const call = (name: string, args: unknown, event: Partial<InvokeEvent> = {}) =>
    registered.get(channelOf(name as never))!({ senderFrame: { url: 'app://desk/index.html' }, sender: ours, ...event }, args);
  return { handlers, registered, unregister, call, ours };
}

describe('registerContract', () => {
  it('registers exactly one channel per contract method, and removes them all', () => {
    const { registered, unregister } = standIns();
    expect([...registered.keys()].sort()).toEqual(METHOD_NAMES.map(channelOf).sort());
    unregister();
    expect(registered.size).toBe(0);
  });

  it('refuses a null frame, another webContents and a foreign origin before any work', async () => {
    const { handlers, call } = standIns();
    const refused = { ok: false, error: { code: 'invalid-input', message: expect.stringMatching(/did not come from Lending Desk/) } };
    await expect(call('appInfo', undefined, { senderFrame: null })).resolves.toMatchObject(refused);
    await expect(call('appInfo', undefined, { sender: { id: 'other' } })).resolves.toMatchObject(refused);
    await expect(call('appInfo', undefined, { senderFrame: { url: 'https://evil.example/' } })).resolves.toMatchObject(refused);
    await expect(call('appInfo', undefined, { senderFrame: { url: 'not a url' } })).resolves.toMatchObject(refused);
    // Pinned to app://desk: no file: page, and no look-alike host of the same scheme.
    for (const url of ['file:///app/out/renderer/index.html', 'app://desk.evil/index.html', 'app://evil@desk.example/', 'blob:app://desk/1']) {
      await expect(call('appInfo', undefined, { senderFrame: { url } }), url).resolves.toMatchObject(refused);
    }
    expect(handlers.appInfo).not.toHaveBeenCalled();
  });

  it('passes parsed arguments to the handler and wraps the answer', async () => {
    const { handlers, call } = standIns();
    await expect(call('lookupPatron', { libraryId: 101, card: ' 0004412345 ' })).resolves.toEqual({ ok: true, value: { called: 'lookupPatron' } });
    expect(handlers.lookupPatron).toHaveBeenCalledWith({ libraryId: 101, card: '0004412345' });
  });

  it('refuses bad arguments of every method with invalid-input and a readable message, calling nothing', async () => {
    const { handlers, call } = standIns();
    const bad: Record<string, unknown[]> = {
      appInfo: [{ x: 1 }], listProfiles: ['x'], useSandbox: [42],
      testPartnerConnection: [{}, { baseUrl: 'https://x', username: '', password: 'p' }],
      savePartnerProfile: [{ profile: { name: 'x', baseUrl: 'https://x', libraries: [], country: 'US' }, username: 'u', password: 'p' }],
      replaceCredentials: [{ profileId: 'p', username: 'u' }], forgetCredentials: [{ profileId: '' }],
      activateProfile: [{ profileId: 5 }], removeProfile: [null],
      updatePreferences: [{ idleLockMinutes: 0 }, { idleLockMinutes: 2.5 }, { language: 'de' }],
      startShift: [{ staffName: '   ' }, { staffName: 'x'.repeat(61) }, { staffName: 'JD' }, { staffName: 'JD', pin: '' }, { staffName: 'JD', pin: '12\u000734' }], lockSession: [{ reason: 'bored' }],
      reportActivity: [{ at: 1 }],
      setDeskPin: [{ pin: '12345' }, { pin: 'abcdef', currentPin: 5 }, { pin: 'abc\ndef' }],
      copyText: [{ text: '', purpose: 'slip' }, { text: 'x', purpose: 'password' }, { text: 'x'.repeat(20_001), purpose: 'card' }],
      lookupPatron: [{ libraryId: -1, card: '1' }, { libraryId: 101, card: '' }, { libraryId: 101, card: '..' }, { libraryId: 101, card: 'a\nb' }],
      findCardElsewhere: [{ libraryId: 101 }, { libraryId: 101, card: '1', extra: true }],
      borrow: [{ libraryId: 101, card: '1', contentId: 1.5 }, { libraryId: 101, card: '1', contentId: '..' }, { libraryId: 101, card: '1', contentId: '7,8' }, { libraryId: 101, card: '1', contentId: 'x'.repeat(101) }, { libraryId: 101, card: '1', contentId: ' ep-1' }],
      returnTitle: [{ libraryId: 101, card: '1' }], placeHold: [{ libraryId: '101', card: '1', contentId: 1 }],
      removeHold: [{ libraryId: 101, card: '1', contentId: 1, extra: true }],
      liveSearch: [{ libraryId: 101, q: '' }, { libraryId: 101, q: 'x', limit: 500 }, { libraryId: 101, q: 'x', formats: ['PAMPHLET'] }],
      liveAvailability: [{ libraryId: 101, contentIds: [] }, { libraryId: 101, contentIds: [1, -2] }],
      listActions: [{ limit: 0 }, { offset: -1 }, 'all', { cardEnding: '12345' }, { outcome: 'maybe' }, { from: -1 }], exportActions: [{ format: 'xlsx' }, { staff: '' }],
      todaysActions: [{ libraryId: 101 }, { libraryId: 101, card: '' }],
      collectionBrowse: [{ libraryId: 101, limit: 501 }, { libraryId: 101, sort: 'random' }, { libraryId: 101, text: 'x'.repeat(201) }],
      collectionTitle: [{ libraryId: 101 }, { libraryId: 101, contentId: 0 }],
      collectionLiveAvailability: [{ libraryId: 101, contentIds: Array.from({ length: 501 }, (_, i) => i + 1) }],
      syncStatus: [{ now: true }], syncNow: [{ full: 'yes' }],
      libraryMirror: [{ x: 1 }], setLibraryMirrorPassword: [{}, { password: '' }, { password: 'x'.repeat(1001) }, { password: 'x', user: 'desk' }],
      libraryServer: [{ x: 1 }], enrolDesk: [{}, { code: 'ab' }, { code: 'x'.repeat(65) }, { code: 5 }, { code: 'K7QM-2ZTB', workstationId: 'ws-1' }, { code: 'ABCD-EFGH', extra: 1 }],
      readAuditTrail: [{ offset: -1 }, { limit: 501 }, { card: '21234000000002' }, { staff: 'x'.repeat(61) }, { export: 'yes' }],
      titleContents: [{ libraryId: 101, titleIds: [] }, { libraryId: 101, titleIds: ['7'] }, { libraryId: 101, titleIds: Array.from({ length: 101 }, (_, i) => i + 1) }],
      cancelCalls: [{}, { callIds: [] }, { callIds: ['a b'] }, { callIds: ['x'.repeat(65)] }, { callIds: Array.from({ length: 101 }, (_, i) => `c${i}`) }],
      lookUpTitles: [{ libraryId: 101, titleIds: [] }, { libraryId: 101, titleIds: [1, 2, 3, 4, 5, 6] }, { libraryId: 101, titleIds: [0] }],
    };
    expect(Object.keys(bad).sort()).toEqual([...METHOD_NAMES].sort());
    for (const [name, argsList] of Object.entries(bad)) {
      for (const args of argsList) {
        const result = await call(name, args) as { ok: boolean; error: { code: string; message: string } };
        expect(result.ok, `${name} ${JSON.stringify(args)}`).toBe(false);
        expect(result.error.code).toBe('invalid-input');
        expect(result.error.message.length).toBeGreaterThan(5);
        expect(result.error.message).not.toMatch(/\[object|undefined|stack/i);
      }
      expect(handlers[name], name).not.toHaveBeenCalled();
    }
  });

  it('returns a DeskError as data, and an unexpected error without its details', async () => {
    const { handlers, call } = standIns();
    (handlers.appInfo as unknown as Mock).mockRejectedValueOnce(new DeskError('limit-reached', 'Allowance used up', 403));
    await expect(call('appInfo', undefined)).resolves.toEqual({ ok: false, error: { code: 'limit-reached', message: 'Allowance used up', status: 403 } });
    (handlers.appInfo as unknown as Mock).mockRejectedValueOnce(new TypeError('secret internals at /home/x'));
    const result = await call('appInfo', undefined) as { error: { code: string; message: string } };
    expect(result.error.code).toBe('server');
    expect(result.error.message).not.toMatch(/internals/);
  });
});
