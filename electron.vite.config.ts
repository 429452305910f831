import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'electron-vite';
import { startTextsDefine } from './scripts/build/start-texts.ts';

// Main and preload bundle our own code; the preload runs with `sandbox: true`, so it must be
// one CommonJS file with nothing left to require at run time.
export default defineConfig({
  main: {
    // The locale files' `start` sections, for main's own pages (electron/main/app/start-texts.ts).
    define: startTextsDefine(),
    build: {
      outDir: 'out/main',
      // The mirror's owner runs on a worker thread, from a file of its own (mirror-worker.ts).
      rollupOptions: { input: { index: resolve('electron/main/app/index.ts'), 'mirror-worker': resolve('electron/mirror-owner/mirror-worker.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src'),
    // The CSP is a response header of the app:// handler (electron/main/app/app-protocol.ts).
    plugins: [vue()],
    // vue-i18n's compile-time flags: Composition API only, no devtools hooks, no eval.
    define: {
      __VUE_I18N_FULL_INSTALL__: true,
      __VUE_I18N_LEGACY_API__: false,
      __INTLIFY_PROD_DEVTOOLS__: false,
    },
    build: {
      outDir: resolve('out/renderer'),
      rollupOptions: { input: resolve('src/index.html') },
    },
  },
});
