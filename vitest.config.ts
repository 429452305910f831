import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';
import { startTextsDefine } from './scripts/build/start-texts.ts';

export default defineConfig({
  plugins: [vue()],
  // As electron.vite.config.ts gives main: the locale files' `start` sections (electron/main/app/start-texts.ts).
  define: startTextsDefine(),
  test: {
    include: ['tests/unit/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores here: run files two at a time so servers and timers are not starved.
    maxWorkers: 2,
  },
});
