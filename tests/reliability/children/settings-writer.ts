// Writes the desk settings in a tight loop, opened exactly as the app (and node-desk.ts)
// opens them, so the crash-safety run can kill it with SIGKILL in the middle of a write.
// Even writes change preferences, odd writes save a connection profile with 1 to 20
// libraries, so the file grows and shrinks. Each write carries its number: the window's x
// for a preference write, the profile's name for a profile write. After each completed
// write it prints "ack <n> <kind> <bytes>".
// argv: <settings folder> <first write number>
import Conf from 'conf';
import { readSettingsFile, Settings, type ConnectionProfile, type SettingsStore } from '../../../electron/main/settings/index.ts';

const [dir, first] = process.argv.slice(2) as [string, string];
const store = new Conf({ cwd: dir, configName: 'settings', projectName: 'lending-desk', clearInvalidConfig: false, deserialize: readSettingsFile });
const settings = new Settings(store as unknown as SettingsStore);

function profileFor(n: number): ConnectionProfile {
  const count = 1 + ((n * 7) % 20);
  return {
    id: 'crash', name: `write ${n}`, kind: 'partner', baseUrl: 'https://partner.example.org', wsApi: '2.1', country: 'US',
    libraries: Array.from({ length: count }, (_, i) => ({ libraryId: 1000 + i, name: `Branch ${i} `.padEnd(1 + ((n + i * 13) % 80), 'x').trim() })),
  };
}

for (let n = Number(first); ; n++) {
  let kind: string;
  if (n % 2 === 0) {
    kind = 'preferences';
    settings.update({
      idleLockMinutes: 1 + (n % 240), language: n % 4 === 0 ? 'en' : 'fr-CA',
      window: { x: n, y: n % 1000, width: 800 + ((n * 37) % 1200), height: 600 + ((n * 53) % 600), maximized: n % 3 === 0 },
    });
  } else {
    kind = 'profile';
    settings.saveProfile(profileFor(n));
  }
  process.stdout.write(`ack ${n} ${kind} ${JSON.stringify(store.store).length}\n`);
}
