// Makes the scrypt hash of a PIN for the machine policy's staffPins (IT runs it on their own
// machine; the PIN itself goes nowhere): `node scripts/pin-hash.ts` asks for the PIN twice
// without showing it, or reads one line from standard input when piped. Prints the PHC string
// (`$scrypt$ln=16,r=8,p=1$…`) and, with a name, the policy entry: `node scripts/pin-hash.ts "Ana Lopez"`.
// It refuses a PIN the desk's rules refuse (electron/shared/pin-rules.ts: at least 6 characters,
// no repeat, run, repeated group or common PIN): the policy holds only the hash, and a desk can
// only tell staff to ask IT again once the weak PIN is typed at its lock screen.
import { createInterface } from 'node:readline';
import { hashPin } from '../electron/node/pin/pin-hash.ts';
import { pinProblem } from '../electron/shared/pin-rules.ts';
import { reasonText } from '../electron/shared/reasons.ts';

async function ask(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const lines = createInterface({ input: process.stdin });
    for await (const line of lines) return line;
    return '';
  }
  process.stderr.write(prompt);
  process.stdin.setRawMode(true);
  process.stdin.resume();
  let typed = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          process.stdin.setRawMode(false);
          process.stdin.pause();
          process.stdin.off('data', onData);
          process.stderr.write('\n');
          resolve(typed);
          return;
        }
        if (char === '\u0003') process.exit(130); // Ctrl+C
        typed = char === '\u007f' || char === '\b' ? typed.slice(0, -1) : typed + char;
      }
    };
    process.stdin.on('data', onData);
  });
}

const name = process.argv[2]?.trim();
const pin = await ask('PIN: ');
const rule = pinProblem(pin);
if (rule) {
  process.stderr.write(`${reasonText(rule)}\n`);
  process.exit(1);
}
if (process.stdin.isTTY && (await ask('PIN again: ')) !== pin) {
  process.stderr.write('The two PINs are not the same.\n');
  process.exit(1);
}
const pinHash = await hashPin(pin);
process.stdout.write(name ? `${JSON.stringify({ name, pinHash })}\n` : `${pinHash}\n`);
