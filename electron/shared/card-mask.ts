// How a library card appears anywhere but the entry field: its last four characters, enough
// for staff to confirm it with the patron. A card of four characters or fewer shows nothing,
// since its "last four" would be the whole card. Used by the renderer, the log and the
// action log alike.
const MASK = '••••';

export function maskCard(card: string): string {
  const value = String(card).trim();
  return value.length <= 4 ? MASK : MASK + value.slice(-4);
}
