// What the log says about the machine policy at start, once: where it came from, or
// "policy ignored: <why>", "automatic updates refused: <why>" and the settings this version does
// not know, in English for IT.
import type { Logger } from '../../node/logging/logger.ts';
import type { MachinePolicy } from './load.ts';
import { ignoredLine, updatesRefusedLine } from './problem.ts';

export function logMachinePolicy(machine: MachinePolicy, logger: Pick<Logger, 'info' | 'warn'>): void {
  const { problems, source } = machine;
  if (machine.readByRegExe) logger.warn('policy.read-by-reg-exe', { because: machine.readByRegExe.because });
  if (problems.ignored) logger.warn('policy.ignored', { source, message: ignoredLine(problems.ignored) });
  else if (machine.policy) logger.info('policy.applied', { source });
  if (problems.updatesRefused) logger.warn('updates.refused', { message: updatesRefusedLine(problems.updatesRefused) });
  if (problems.unknownSettings) logger.warn('policy.unknown-settings', { source, settings: problems.unknownSettings, message: `settings this version does not know, set aside: ${problems.unknownSettings.join(', ')}` });
}
