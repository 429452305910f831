// The main-stall benchmark on its own (`node bench/main-stall-process.ts`): a 1,000,000-title
// sandbox in another process, then benchMainStall. npm run bench runs it beside the others.
import { benchMainStall } from './main-stall.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const size = Number(process.env.CATALOG ?? 1_000_000);
const sandbox = await startSandboxProcess(['--catalog-size', String(size)]);
try {
  console.log(JSON.stringify(await benchMainStall(sandbox, size)));
} finally {
  sandbox.stop();
}
