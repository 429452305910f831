// The limits the mirror's ingest is held to, measured in a process of their own against the
// benchmark's sandbox: the partner client's bare paged extraction (the HTTP limit) and, on a
// sample of the same pages, the bulk limit beside the mirror's own write path. Apart, so the
// benchmark's memory figure is the mirror's and not these measurements'. Prints one JSON line.
// argv: <JSON sandbox {url, username, password}> <country> <work folder>
import type { Country } from '../electron/shared/model.ts';
import { bareExtraction, writeLimits } from './mirror-ingest.ts';
import type { SandboxProcess } from './sandbox-process.ts';

const [sandboxJson, country, dir] = process.argv.slice(2) as [string, Country, string];
const sandbox = JSON.parse(sandboxJson) as Pick<SandboxProcess, 'url' | 'username' | 'password'>;
await bareExtraction(sandbox, country, 30); // the sandbox and the client warmed up before either is timed
const http = await bareExtraction(sandbox, country);
const limits = await writeLimits(sandbox, country, dir);
process.stdout.write(`${JSON.stringify({ http, ...limits, peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
