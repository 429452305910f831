// `npm run bench`: every benchmark of the project, figures and ratios printed beside their
// goals, nothing asserted; the last line is BENCH-JSON with the figures of issue #15.
import { benchClientOverhead, benchLibraryContentExtraction } from './partner-client.ts';
import { benchCatalogMirror } from './catalog-mirror.ts';
import { benchPatronLookup } from './patron-lookup.ts';

const started = performance.now();
console.log(`Lending Desk benchmarks — Node ${process.versions.node}, ${new Date().toISOString()}\n`);
await benchClientOverhead();
console.log();
await benchLibraryContentExtraction();
console.log();
await benchPatronLookup();
console.log();
const mirror = await benchCatalogMirror();
console.log(`\nThe whole run took ${((performance.now() - started) / 60_000).toFixed(1)} minutes.`);
// refreshVsFloor belongs to the connection bench (the shared request budget): null until it runs here.
const { filterP95Ms, searchP95Ms, scrollP95Ms, sortP95Ms, ingestVsHttp, insertVsBulkLimit, bulkLimitPerSec, mirrorPeakRssMiB, deltaSeconds, uiKeyToRowsP95Ms } = mirror;
console.log(`BENCH-JSON ${JSON.stringify({
  filterP95Ms, searchP95Ms, scrollP95Ms, sortP95Ms, ingestVsHttp, insertVsBulkLimit, bulkLimitPerSec, mirrorPeakRssMiB, deltaSeconds,
  refreshVsFloor: null, uiKeyToRowsP95Ms,
})}`);
