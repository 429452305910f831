// Never imported for real. tsconfig.main.json, tsconfig.node.json and server/tsconfig.json map
// `node:sqlite` here, and this file is outside those projects, so the compiler refuses such an
// import (TS6307) naming this file: the mirror's SQLite file has one owner, its thread
// (electron/mirror-owner), and main never holds a database handle (its event loop would wait on it).
export {};
