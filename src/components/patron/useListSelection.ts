// Arrow keys, Home and End move the selection in a loans or holds list; the selected item is
// the one Tab reaches (a roving tabindex) and the one Alt+R / Alt+H act on.
import { nextTick, type Ref } from 'vue';
import type { ContentId } from '../../../electron/shared/content-id.ts';

export function useListSelection(list: Ref<HTMLElement | undefined>, ids: () => ContentId[], selected: () => ContentId | undefined, select: (id: ContentId) => void) {
  function focusSelected(): void {
    void nextTick(() => list.value?.querySelector<HTMLElement>('[aria-current="true"]')?.focus());
  }

  function onKeydown(event: KeyboardEvent): void {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLElement && event.target.closest('a, button')) {
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    }
    const all = ids();
    if (all.length === 0) return;
    const at = Math.max(0, all.indexOf(selected() ?? all[0]!));
    let next: number | undefined;
    if (event.key === 'ArrowDown') next = Math.min(all.length - 1, at + 1);
    else if (event.key === 'ArrowUp') next = Math.max(0, at - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = all.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    select(all[next]!);
    focusSelected();
  }

  return { onKeydown, focusSelected };
}
