// @vitest-environment happy-dom
// The wait the lending service imposes, said to staff while they wait (issue #31): a library
// server whose credential's minute is full tells the desk the wait (main's serviceWait event);
// the desk says it in one sentence above every tab, counting down, in English and in French, and
// it goes once the call has its answer — or once the estimate has run out.
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PatronView, Result } from '../../../electron/shared/contract.ts';
import { mountApp, ok, PATRON, sandboxInfo } from './fake-desk.ts';
import { scan } from './patron-desk-helpers.ts';
import { useGateway } from '../../../src/gateway/gateway.ts';

const notice = (): HTMLElement => document.querySelector('.service-wait') as HTMLElement;

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('a wait the lending service imposes', () => {
  it('is said while the lookup waits, counts down, and goes when the answer comes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { desk } = await mountApp(sandboxInfo());
    let answer!: (value: Result<PatronView>) => void;
    desk.lookupPatron.mockImplementationOnce(() => new Promise((resolve) => { answer = resolve; }));
    expect(notice().hidden).toBe(true);

    await scan('0012345');
    desk.emit('serviceWait', { seconds: 8 });
    await flushPromises();
    expect(notice().hidden).toBe(false);
    expect(notice().getAttribute('role')).toBe('status');
    expect(notice().textContent).toContain('this goes through in about 8 seconds');

    await vi.advanceTimersByTimeAsync(3_000);
    expect(notice().textContent).toContain('about 5 seconds');

    answer(ok(PATRON));
    await flushPromises();
    expect(notice().hidden).toBe(true);
    expect(notice().textContent?.trim()).toBe('');
  });

  it('goes once its estimate has run out, and is said in French', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const info = sandboxInfo();
    const { desk } = await mountApp({ ...info, preferences: { ...info.preferences, language: 'fr-CA' } });
    desk.lookupPatron.mockImplementationOnce(() => new Promise(() => {}));
    // A call that never answers (the service's wait longer than said): the notice still goes when the estimate ends.
    void useGateway().call('lookupPatron', { libraryId: 101, card: '0012345' });
    desk.emit('serviceWait', { seconds: 3 });
    await flushPromises();
    expect(notice().textContent).toContain('ceci passera dans environ 3 secondes');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(notice().hidden).toBe(true);
  });
});
