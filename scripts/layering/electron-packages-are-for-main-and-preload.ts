// Never imported for real. tsconfig.node.json maps `electron`, `electron-store` and
// `electron-updater` here for the code outside electron/main/app and electron/preload, and this file
// is outside that project, so the compiler refuses such an import (TS6307) naming this file:
// importing `electron` in code plain Node loads tries to download Electron (DESIGN.md, Tests).
export {};
