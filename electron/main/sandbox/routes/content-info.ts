// GET /api/v1/libraries/{libraryId}/content/info?contentIds=1,2,3: availability, at most 50
// ids per call, answered in the order asked.

import type { WireContentInfo } from '../../../node/partner/wire.ts';
import { CONTENT_INFO_BATCH } from '../../../node/partner/limits.ts';
import { HttpError } from '../http-error.ts';
import { commaList } from '../query.ts';
import { libraryOf, ok } from './context.ts';
import type { Handler } from './context.ts';

export const MAX_CONTENT_IDS = CONTENT_INFO_BATCH;

export const contentInfo: Handler = (context) => {
  const library = libraryOf(context);
  const { contents } = context.state;
  const ids = commaList(context.query.get('contentIds') ?? '').map((raw) => contents.parse('contentIds', raw));
  if (ids.length === 0) throw new HttpError(400, 'contentIds is required: one or more content ids separated by commas');
  if (ids.length > MAX_CONTENT_IDS) {
    throw new HttpError(400, `contentIds accepts at most ${MAX_CONTENT_IDS} ids per call`, `got ${ids.length}`);
  }
  const body: WireContentInfo[] = ids.map((key) => ({
    contentId: contents.wire(key),
    availability: context.state.circulation.availability(library.libraryId, key),
  }));
  return ok(body);
};
