// The service's published limits on one request, and the sizes every caller takes from here.
// Both ends use them: the client never asks for more, and the sandbox refuses more with 400, as
// a strict service would, so a regression fails in tests instead of on the real service.

/**
 * Items a bulk request (global contents, entitlements, library content, search) may ask for:
 * the guidance's batches of 200–500. A sync's pulls and the 10-minute refresh's entitlements
 * delta ask for this many a page (the largest allowed, so the changed ids cost few calls).
 */
export const BATCH_LIMIT = 500;

/** Content ids a content-info call may carry (the spec's own limit). */
export const CONTENT_INFO_BATCH = 50;
