// The mirror benchmark in a process of its own, so its peak RSS is the mirror's and not
// that of the benchmarks before it. Prints as it goes; writes its figures as JSON to argv[2].
import { writeFileSync } from 'node:fs';
import { benchMirror } from './mirror-bench.ts';

const [figuresFile] = process.argv.slice(2) as [string];
writeFileSync(figuresFile, JSON.stringify(await benchMirror()));
