// `npm run bench`: every benchmark of the project, figures and ratios printed, nothing asserted.
import { benchClientOverhead, benchLibraryContentExtraction } from './partner-client.ts';
import { benchCatalogMirror } from './catalog-mirror.ts';
import { benchPatronLookup } from './patron-lookup.ts';

console.log(`Lending Desk benchmarks — Node ${process.versions.node}, ${new Date().toISOString()}\n`);
await benchClientOverhead();
console.log();
await benchLibraryContentExtraction();
console.log();
await benchPatronLookup();
console.log();
await benchCatalogMirror();
