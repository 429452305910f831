// @vitest-environment happy-dom
// axe-core in happy-dom: structure, names, roles and landmarks are checked; colour contrast
// needs real layout and comes back "incomplete" here (the e2e run in Chromium covers it).
import { flushPromises } from '@vue/test-utils';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { buttonNamed, inputLabelled, mountApp, sandboxInfo, unconfigured } from './fake-desk.ts';

async function seriousViolations(): Promise<string[]> {
  const results = await axe.run(document.body);
  if (results.incomplete.some((r) => r.id === 'color-contrast')) {
    console.info('axe color-contrast skipped: happy-dom has no layout or computed colours (checked in the Chromium e2e run).');
  }
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
}

describe('accessibility (axe-core)', () => {
  it('first run', async () => {
    const { wrapper } = await mountApp(unconfigured());
    expect(await seriousViolations()).toEqual([]);
  });

  it('shift start', async () => {
    const { wrapper } = await mountApp(sandboxInfo(false));
    expect(await seriousViolations()).toEqual([]);
  });

  it('desk with a patron shown', async () => {
    const { wrapper } = await mountApp(sandboxInfo());
    const input = inputLabelled('Library card') as HTMLInputElement;
    input.value = '0012345';
    input.dispatchEvent(new Event('input'));
    input.closest('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flushPromises();
    expect(wrapper.text()).toContain('Card ••••2345');
    expect(await seriousViolations()).toEqual([]);
  });

  it('settings', async () => {
    const { wrapper } = await mountApp(sandboxInfo());
    await buttonNamed(wrapper, 'Settings').trigger('click');
    await flushPromises();
    await buttonNamed(wrapper, 'Add a partner connection').trigger('click');
    await flushPromises();
    expect(await seriousViolations()).toEqual([]);
  });

  it('lock screen', async () => {
    const { wrapper } = await mountApp(sandboxInfo());
    await buttonNamed(wrapper, 'Lock').trigger('click');
    await flushPromises();
    expect(wrapper.get('h1').text()).toBe('Desk locked');
    expect(await seriousViolations()).toEqual([]);
  });
});
