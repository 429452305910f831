// The desk's keyboard shortcuts: one table drives both the key handler and the help overlay
// (and the table in docs/desk-guide.md). Alt shortcuts, the F keys, Esc and Ctrl+L work from every field, the
// card field included, where focus sits after each lookup; the bare `?` and `/` never fire
// while typing (the character belongs to the field). Esc in a field with text empties that
// field first (DeskPage); AltGr, which Windows reports as Ctrl+Alt, types characters.

export type ShortcutCommand =
  | 'help' | 'card' | 'search' | 'library' | 'escape' | 'log' | 'lock' | 'returnLoan' | 'removeHold' | 'borrow' | 'offer' | 'slip'
  | 'viewPatron' | 'viewCollection' | 'viewSync';

export const SHORTCUT_HELP: { keys: string[]; what: string }[] = [
  { keys: ['F1', '?'], what: 'help' },
  { keys: ['F2', 'Alt+C'], what: 'card' },
  { keys: ['F3', 'Alt+S', '/'], what: 'search' },
  { keys: ['F4'], what: 'library' },
  { keys: ['Esc'], what: 'escape' },
  { keys: ['Enter'], what: 'enter' },
  { keys: ['↑', '↓', 'Home', 'End'], what: 'arrows' },
  { keys: ['Alt+B'], what: 'borrow' },
  { keys: ['Alt+R'], what: 'returnLoan' },
  { keys: ['Alt+H'], what: 'removeHold' },
  { keys: ['Alt+O'], what: 'offer' },
  { keys: ['Alt+D'], what: 'slip' },
  { keys: ['Alt+L'], what: 'log' },
  { keys: ['Ctrl+L'], what: 'lock' },
  { keys: ['Alt+1', 'Alt+2', 'Alt+3'], what: 'views' },
];

const ALT_CODES: Record<string, ShortcutCommand> = {
  KeyC: 'card', KeyS: 'search', KeyL: 'log', KeyR: 'returnLoan', KeyH: 'removeHold', KeyB: 'borrow', KeyO: 'offer', KeyD: 'slip',
  Digit1: 'viewPatron', Digit2: 'viewCollection', Digit3: 'viewSync',
};

const F_KEYS: Record<string, ShortcutCommand> = { F1: 'help', F2: 'card', F3: 'search', F4: 'library' };

/** True when keys typed now belong to a field (text inputs, selects, editable text). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  return false;
}

/** A text field holding text: Esc there empties it rather than clearing the patron. */
export function textFieldWithText(target: EventTarget | null): HTMLInputElement | HTMLTextAreaElement | undefined {
  if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) || !isTyping(target)) return undefined;
  return target.value === '' ? undefined : target;
}

/**
 * The character a card scan may begin with (a letter or a digit, typed without Ctrl, Alt or Cmd),
 * or undefined: a scanner types the card as keys, then Enter.
 */
export function scanCharacter(event: KeyboardEvent): string | undefined {
  if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return undefined;
  return /^[0-9A-Za-z]$/.test(event.key) ? event.key : undefined;
}

/** The command a key press means, if any. */
export function commandFor(event: KeyboardEvent): ShortcutCommand | undefined {
  if (event.key === 'Escape') return 'escape';
  const fKey = F_KEYS[event.key];
  if (fKey) return fKey;
  // Ctrl+L (Cmd+L on a Mac) locks, from anywhere: it types nothing in a field.
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.code === 'KeyL') return 'lock';
  if (event.ctrlKey || event.metaKey) return undefined; // AltGr is Ctrl+Alt on Windows: a character, not a shortcut
  if (event.altKey) return ALT_CODES[event.code];
  if (isTyping(event.target)) return undefined;
  if (event.key === '?') return 'help';
  if (event.key === '/') return 'search';
  return undefined;
}
