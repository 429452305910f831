// A desk in a library (issue #25), as Settings shows it: which library mirror IT's policy names,
// whether its role's password is kept on this desk, and — where the policy lets IT type it here —
// saving it (main keeps it in the keychain; it never comes back).
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { LibraryMirrorView, Result } from '../../electron/shared/contract.ts';
import { useGateway } from '../gateway/gateway.ts';

export const useLibraryMirrorStore = defineStore('library-mirror', () => {
  const gateway = useGateway();
  /** null: a desk on its own; undefined: not asked yet. */
  const view = ref<LibraryMirrorView | null>();

  async function load(): Promise<void> {
    const result = await gateway.call('libraryMirror');
    if (result.ok) view.value = result.value;
  }

  async function savePassword(password: string): Promise<Result<LibraryMirrorView>> {
    const result = await gateway.call('setLibraryMirrorPassword', { password });
    if (result.ok) view.value = result.value;
    return result;
  }

  return { view, load, savePassword };
});
