// What staff do in the Collection, for its component tests: open its tab, type in its search box.
import { flushPromises, type VueWrapper } from '@vue/test-utils';

export async function openCollection(wrapper: VueWrapper): Promise<void> {
  await wrapper.findAll('[role="tab"]').find((t) => t.text() === 'Collection')!.trigger('click');
  await flushPromises();
}

/** The search box holds `text` (as if typed) and what it set off has run. */
export async function typeInSearch(text: string): Promise<void> {
  const input = document.getElementById('collection-text') as HTMLInputElement;
  input.value = text;
  input.dispatchEvent(new Event('input'));
  await flushPromises();
}
