// The names staff know the contract's argument fields by, in English. A refusal of an argument
// names its field by key (`params.field`); main's log gets the name below, and the renderer the
// locale's (`fields` in src/i18n: en is this table, fr-CA translates every key).

export const FIELD_NAMES = {
  libraryId: 'Library', card: 'Library card', contentId: 'Title id', contentIds: 'Title ids', title: 'Title',
  username: 'Username', password: 'Password', baseUrl: 'Service address', profileId: 'Connection profile',
  staffName: 'Staff name', idleLockMinutes: 'Idle lock minutes', language: 'Language', q: 'Search text',
  offset: 'Result offset', limit: 'Results per page', formats: 'Formats', purchaseModel: 'Lending model',
  name: 'Name', libraries: 'Library ids', wsApi: 'ws-api value', country: 'Country', reason: 'Reason', profile: 'Profile',
  text: 'Search text', model: 'Lending model', active: 'Shown to patrons', availableNow: 'Available now', kids: "Children's titles",
  sort: 'Sort order', direction: 'Sort direction', full: 'Full re-sync', id: 'Profile id',
  // the shared desk (issue #13)
  pin: 'PIN', currentPin: 'Current PIN', partnerUsername: 'Partner username', partnerPassword: 'Partner password',
  cardEnding: 'Card ending', staff: 'Staff', from: 'From', to: 'To', outcome: 'Outcome',
  // the desk as staff use it (issue #35)
  noCopyFree: 'No copy free',
} as const;

export type FieldName = keyof typeof FIELD_NAMES;

export function isFieldName(value: unknown): value is FieldName {
  return typeof value === 'string' && Object.hasOwn(FIELD_NAMES, value);
}
