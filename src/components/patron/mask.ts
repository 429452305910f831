// One rule for masked cards, shared with main's log and action log.
export { maskCard } from '../../../electron/shared/card-mask.ts';
