// How much one request asks of the service: the sizes every caller takes from here.

/** Content ids per content-info call: the spec allows at most 50. */
export const CONTENT_INFO_BATCH = 50;

/** Records per page of a sync's bulk pulls (the global catalog, entitlements, library content). */
export const BULK_PAGE_SIZE = 500;

/** Records per page of the 10-minute refresh's entitlements delta: the largest the service gives, so the changed ids cost few calls. */
export const REFRESH_PAGE_SIZE = 1000;
