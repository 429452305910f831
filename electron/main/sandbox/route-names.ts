// The routes faults and request counts refer to.

export const ROUTE_NAMES = [
  'token', 'borrow', 'return', 'placeHold', 'removeHold', 'checkouts', 'holds', 'status',
  'libraryContent', 'globalContents', 'entitlements', 'search', 'contentInfo',
] as const;

export type RouteName = (typeof ROUTE_NAMES)[number];

export function isRouteName(value: unknown): value is RouteName {
  return typeof value === 'string' && (ROUTE_NAMES as readonly string[]).includes(value);
}

export function zeroCounts(): Record<RouteName, number> {
  const counts = {} as Record<RouteName, number>;
  for (const name of ROUTE_NAMES) counts[name] = 0;
  return counts;
}
