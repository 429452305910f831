// `npm run reliability` (`-- --short` for the size `npm test` runs): every reliability run in
// turn, each figure printed beside its goal and what it proves; exit code 1 when a goal is
// missed. `-- --only "bad input"` (repeatable) runs the named runs alone, to check one fix.
// Nothing is timed against a limit: time is printed, not asserted.
import { runBadInput } from './bad-input.ts';
import { runCrashSafety } from './crash-safety.ts';
import { runFaultMix } from './fault-mix.ts';
import { runLostResponses } from './lost-responses.ts';
import { FULL, SHORT, formatSection, type Scale, type Section } from './report.ts';
import { secretsSection } from './secrets.ts';
import { runTokenChurn } from './token-churn.ts';

const scale: Scale = process.argv.includes('--short') ? SHORT : FULL;
const runs: [string, (s: Scale) => Promise<Section>][] = [
  ['token churn', runTokenChurn],
  ['lost responses', runLostResponses],
  ['fault mix and memory', runFaultMix],
  ['bad input', runBadInput],
  ['crash safety', runCrashSafety],
  // Last: it reads what every run above left behind.
  ['secrets', async () => secretsSection()],
];

const only = process.argv.flatMap((arg, i) => (process.argv[i - 1] === '--only' ? [arg] : []));
const unknown = only.filter((name) => !runs.some(([n]) => n === name));
if (unknown.length > 0) throw new Error(`No run named ${unknown.join(', ')}; the runs: ${runs.map(([n]) => n).join(', ')}`);
const chosen = only.length === 0 ? runs : runs.filter(([name]) => only.includes(name));

console.log(`Lending Desk reliability runs (${scale.name}) — Node ${process.versions.node}, ${new Date().toISOString()}\n`);
const started = Date.now();
let missed = 0;
for (const [name, run] of chosen) {
  const t = Date.now();
  const section = await run(scale);
  missed += section.figures.filter((f) => !f.met).length;
  console.log(`${formatSection(section)}\n       (${name}: ${((Date.now() - t) / 1000).toFixed(1)} s)\n`);
}
console.log(`${missed === 0 ? 'Every goal met' : `${missed} goal(s) missed`} in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
process.exitCode = missed === 0 ? 0 : 1;
