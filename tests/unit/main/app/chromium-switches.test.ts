import { describe, expect, it } from 'vitest';
import { applyChromiumSwitches, chromiumSwitchArgs } from '../../../../electron/main/app/chromium-switches.ts';

/** Chromium's command line as far as these calls go: one value per switch, the last appended wins. */
function line(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return { values, getSwitchValue: (name: string) => values.get(name) ?? '', appendSwitch: (name: string, value = '') => { values.set(name, value); } };
}

describe('the desk\'s Chromium switches', () => {
  it('turn off the deferral of the page\'s tasks after input', () => {
    const l = line();
    applyChromiumSwitches(l);
    expect(l.values.get('disable-features')).toBe('DeferRendererTasksAfterInput');
  });

  it('keep the features the command line already turns off, and name none twice', () => {
    const l = line({ 'disable-features': 'Translate, DeferRendererTasksAfterInput,,MediaRouter' });
    applyChromiumSwitches(l);
    expect(l.values.get('disable-features')).toBe('Translate,DeferRendererTasksAfterInput,MediaRouter');
  });

  it('are the same as arguments for a stand-in Chromium', () => {
    expect(chromiumSwitchArgs()).toEqual(['--disable-features=DeferRendererTasksAfterInput']);
  });
});
