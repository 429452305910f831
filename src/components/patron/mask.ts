// Staff read a patron's card number back over the phone from the patron, never from the
// screen: show only the last four characters.
export function maskCard(card: string): string {
  return '••••' + card.slice(-4);
}
