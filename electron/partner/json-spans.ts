// Where the values of a JSON text sit, so a bulk page's records can be kept as the exact text
// the service sent instead of being serialised again from what JSON.parse made of them (on a
// million titles JSON.stringify cost the sync's page reader about 2 s; one pass over the text,
// 1.2 µs a record, half that). Only for a text JSON.parse has just accepted: nothing here checks the JSON's
// validity, and any shape it does not expect gives undefined, so the caller serialises instead.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** A value's text: `text.slice(start, end)`. */
export interface Span { start: number; end: number }

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The end of the string whose opening quote is at `i`: the first quote not escaped by an odd run of backslashes. */
function stringEnd(text: string, i: number): number {
  for (let from = i + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslash = quote - 1;
    while (text.charCodeAt(backslash) === BACKSLASH) backslash--;
    if ((quote - 1 - backslash) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The end of the value that starts at `i`. */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return stringEnd(text, i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let j = i;
    for (let c = text.charCodeAt(j); j < text.length && c !== COMMA && c !== CLOSE_OBJECT && c !== CLOSE_ARRAY && !isSpace(c); c = text.charCodeAt(++j));
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) j = stringEnd(text, j) - 1;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return j + 1;
  }
  return text.length;
}

/** Where a walk ended, and the elements of the list it was after (undefined: not there). */
interface Walked { end: number; elements: Span[] | undefined }

/** The elements of the list the value at `i` is. */
function elements(text: string, i: number): Walked | undefined {
  if (text.charCodeAt(i) !== OPEN_ARRAY) return undefined;
  const spans: Span[] = [];
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_ARRAY) return { end: i + 1, elements: spans };
  for (;;) {
    const end = valueEnd(text, i);
    spans.push({ start: i, end });
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_ARRAY) return { end: i + 1, elements: spans };
    if (c !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
}

/** The value at `i`, followed along `path` (member names) to a list: every character is looked at once. */
function walk(text: string, i: number, path: readonly string[]): Walked | undefined {
  if (path.length === 0) return elements(text, i);
  if (text.charCodeAt(i) !== OPEN_OBJECT) return undefined;
  let found: Span[] | undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return { end: i + 1, elements: found };
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const nameEnd = stringEnd(text, i);
    const name = JSON.parse(text.slice(i, nameEnd)) as string;
    i = skipSpace(text, nameEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    i = skipSpace(text, i + 1);
    let end: number;
    if (name === path[0]) {
      const inner = walk(text, i, path.slice(1));
      if (!inner) return undefined;
      found = inner.elements; // a name given twice: its last value, as JSON.parse keeps it
      end = inner.end;
    } else {
      end = valueEnd(text, i);
    }
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_OBJECT) return { end: i + 1, elements: found };
    if (c !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
}

/** The spans of the elements of the list at `path` (member names, each in the object before it); undefined when the text has none there. */
export function listElements(text: string, path: readonly string[]): Span[] | undefined {
  return walk(text, skipSpace(text, 0), path)?.elements;
}
