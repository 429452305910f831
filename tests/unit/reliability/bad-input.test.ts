// The bad-input run at a small size inside `npm test`: every goal asserted. The defects it
// found are pinned one by one in tests/unit/ipc/dispatch-input.test.ts.
import { expect, it } from 'vitest';
import { runBadInput } from '../../reliability/bad-input.ts';
import { formatSection, SHORT } from '../../reliability/report.ts';

it('bad input: generated hostile arguments for every contract method — no crash, no misrouted request, every refusal clear', async () => {
  const section = await runBadInput(SHORT);
  expect(section.figures.filter((f) => !f.met), formatSection(section)).toEqual([]);
  expect(section.figures.find((f) => f.name === 'arguments tried')?.value).toBeGreaterThanOrEqual(SHORT.badInputsPerMethod * 20);
}, 180_000);
