// The desk's keyboard shortcuts: one table drives both the key handler and the help overlay.
// Letter shortcuts never fire while typing in a text field (the letter belongs to the field);
// Esc and the F keys always do.

export type ShortcutCommand = 'help' | 'card' | 'search' | 'escape' | 'log' | 'returnLoan' | 'removeHold' | 'viewPatron' | 'viewCollection' | 'viewSync';

export const SHORTCUT_HELP: { keys: string[]; what: string }[] = [
  { keys: ['F1', '?'], what: 'help' },
  { keys: ['F2', 'Alt+C'], what: 'card' },
  { keys: ['F3', 'Alt+S', '/'], what: 'search' },
  { keys: ['Esc'], what: 'escape' },
  { keys: ['Alt+L'], what: 'log' },
  { keys: ['↑', '↓', 'Home', 'End'], what: 'arrows' },
  { keys: ['Alt+R'], what: 'returnLoan' },
  { keys: ['Alt+H'], what: 'removeHold' },
  { keys: ['Enter'], what: 'enter' },
  { keys: ['Alt+1', 'Alt+2', 'Alt+3'], what: 'views' },
];

const ALT_CODES: Record<string, ShortcutCommand> = {
  KeyC: 'card', KeyS: 'search', KeyL: 'log', KeyR: 'returnLoan', KeyH: 'removeHold', Digit1: 'viewPatron', Digit2: 'viewCollection', Digit3: 'viewSync',
};

/** True when keys typed now belong to a field (text inputs, selects, editable text). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  return false;
}

/** The command a key press means, if any. */
export function commandFor(event: KeyboardEvent): ShortcutCommand | undefined {
  if (event.key === 'Escape') return 'escape';
  if (event.key === 'F1') return 'help';
  if (event.key === 'F2') return 'card';
  if (event.key === 'F3') return 'search';
  if (isTyping(event.target)) return undefined;
  if (event.ctrlKey || event.metaKey) return undefined; // AltGr is Ctrl+Alt on Windows: a character, not a shortcut
  if (event.altKey) return ALT_CODES[event.code];
  if (event.key === '?') return 'help';
  if (event.key === '/') return 'search';
  return undefined;
}
