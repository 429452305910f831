// The service's published limits on one request. Both ends use them: the client never asks
// for more, and the sandbox refuses more with 400, as a strict service would, so a regression
// fails in tests instead of on the real service.

/** Items a bulk request (global contents, entitlements, library content, search) may ask for: the guidance's batches of 200–500. */
export const BATCH_LIMIT = 500;

/** Content ids a content-info call may carry (the spec's own limit). */
export const CONTENT_INFO_BATCH = 50;
