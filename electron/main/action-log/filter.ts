// The action log's filters: the card's last characters (as the log shows them), staff (any
// part of the name, case ignored), a time range and the outcome.
import type { ActionEntry, ActionFilter } from '../../shared/action-log.ts';
import { staffNameKey } from '../policy/schema.ts';

export function matchesFilter(entry: ActionEntry, filter: ActionFilter): boolean {
  if (filter.cardEnding && !entry.card.replace(/^•+/, '').toLowerCase().endsWith(filter.cardEnding.trim().toLowerCase())) return false;
  if (filter.staff && !staffNameKey(entry.staff).includes(staffNameKey(filter.staff))) return false;
  if (filter.from !== undefined && entry.time < filter.from) return false;
  if (filter.to !== undefined && entry.time >= filter.to) return false;
  if (filter.outcome === 'ok' && entry.outcome !== 'ok') return false;
  if (filter.outcome === 'failed' && entry.outcome === 'ok') return false;
  return true;
}
