// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usePatronStore } from '../../../src/stores/patron.ts';
import { buttonNamed, fail, inputLabelled, mountApp, ok, PATRON, sandboxInfo } from './fake-desk.ts';

async function scan(card: string): Promise<void> {
  const input = inputLabelled('Library card') as HTMLInputElement;
  input.value = card;
  input.dispatchEvent(new Event('input'));
  input.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}

async function startShift(name: string): Promise<void> {
  const input = inputLabelled('Enter your name or initials to start') as HTMLInputElement;
  input.value = name;
  input.dispatchEvent(new Event('input'));
  input.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await flushPromises();
}

function expectPatronStoreEmpty(): void {
  const patron = usePatronStore();
  expect(patron.card).toBe('');
  expect(patron.view).toBeUndefined();
  expect(patron.error).toBeUndefined();
  expect(patron.loading).toBe(false);
}

afterEach(() => vi.useRealTimers());

describe('lock', () => {
  it('Lock clears the patron, says who was on shift, keeps the banner, and unlocks to an empty desk', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    await buttonNamed(wrapper, 'Lock').trigger('click');
    await flushPromises();
    expect(desk.lockSession).toHaveBeenCalledWith({ reason: 'staff' });
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    expect(wrapper.text()).toContain('JD was on shift.');
    expect(wrapper.text()).toContain('SANDBOX — training data, no real patrons');
    expect(wrapper.text()).not.toContain('The River Road');
    expect(wrapper.text()).not.toContain('••••');
    expectPatronStoreEmpty();
    expect(document.activeElement).toBe(inputLabelled('Enter your name or initials to start'));

    await startShift('KL');
    expect(desk.startShift).toHaveBeenCalledWith({ staffName: 'KL' });
    expect(wrapper.text()).toContain('On shift: KL');
    expect((inputLabelled('Library card') as HTMLInputElement).value).toBe('');
    expect(wrapper.text()).not.toContain('The River Road');
  });

  it('locks after the idle minutes with no input; any key restarts the countdown', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    vi.advanceTimersByTime(4 * 60_000);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift', bubbles: true }));
    vi.advanceTimersByTime(4 * 60_000);
    await flushPromises();
    expect(desk.lockSession).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60_000);
    await flushPromises();
    expect(desk.lockSession).toHaveBeenCalledWith({ reason: 'idle' });
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    expect(wrapper.text()).toContain('after a period without activity');
    expectPatronStoreEmpty();
  });

  it('locks when main says so, without asking main to lock again', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    await scan('0012345');
    desk.emit('sessionLocked', { reason: 'system' });
    await flushPromises();
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    expect(desk.lockSession).not.toHaveBeenCalled();
    expectPatronStoreEmpty();
  });

  it('never shows a lookup that answers after the desk locked', async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    let answer!: (value: ReturnType<typeof ok>) => void;
    desk.lookupPatron.mockReturnValueOnce(new Promise((resolve) => { answer = resolve as typeof answer; }));
    await scan('0012345');
    await buttonNamed(wrapper, 'Lock').trigger('click');
    answer(ok(PATRON));
    await flushPromises();
    expectPatronStoreEmpty();
    await startShift('JD');
    expect(wrapper.text()).not.toContain('The River Road');
  });

  it("treats main's session-locked answer as a lock", async () => {
    const { wrapper, desk } = await mountApp(sandboxInfo());
    desk.lookupPatron.mockResolvedValueOnce(fail('session-locked', 'No staff shift is open.'));
    await scan('0012345');
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    expectPatronStoreEmpty();
  });
});
