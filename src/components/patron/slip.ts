// The due-date slip: a plain-text summary of the call for an email or a printed slip — the
// library's name, the date, the masked card (never the full number), each loan with its due
// date and each hold with its place in the queue or the day it is kept until. In the desk's
// language and in words a patron reads (no lending-model names).
import type { PatronView } from '../../../electron/shared/contract.ts';
import type { Hold, Loan } from '../../../electron/shared/model.ts';
import { isCount, isPlausibleTime } from '../../i18n/format.ts';
import { maskCard } from '../../../electron/shared/card-mask.ts';

type Translate = (key: string, named?: Record<string, unknown>, plural?: number) => string;

export interface SlipFormat {
  date: (ms: number) => string;
  number: (value: number) => string;
}

export interface SlipInput {
  libraryName: string;
  card: string;
  view: PatronView;
  now: number;
}

function titled(item: Loan | Hold, t: Translate): string {
  const title = item.title || t('patron.untitled', { id: item.contentId });
  return item.format ? t('slip.withFormat', { title, format: t(`patron.formats.${item.format}`) }) : title;
}

function loanLine(loan: Loan, t: Translate, format: SlipFormat): string {
  const title = titled(loan, t);
  return isPlausibleTime(loan.dueAt) ? t('slip.loan', { title, date: format.date(loan.dueAt) }) : t('slip.loanNoDue', { title });
}

function holdLine(hold: Hold, t: Translate, format: SlipFormat): string {
  const title = titled(hold, t);
  if (hold.status === 'RESERVED') {
    return isPlausibleTime(hold.reserveUntil) ? t('slip.holdReady', { title, date: format.date(hold.reserveUntil) }) : t('slip.holdReadyNoDate', { title });
  }
  return isCount(hold.queuePosition) && hold.queuePosition > 0
    ? t('slip.holdWaiting', { title, position: format.number(hold.queuePosition) })
    : t('slip.holdWaitingNoPosition', { title });
}

export function slipLines(input: SlipInput, t: Translate, format: SlipFormat): string[] {
  const { view } = input;
  return [
    input.libraryName,
    t('slip.heading', { date: format.date(input.now) }),
    t('slip.card', { masked: maskCard(input.card) }),
    '',
    t('slip.loans', { count: format.number(view.loans.length) }, view.loans.length),
    ...(view.loans.length ? view.loans.map((loan) => `- ${loanLine(loan, t, format)}`) : [t('slip.noLoans')]),
    '',
    t('slip.holds', { count: format.number(view.holds.length) }, view.holds.length),
    ...(view.holds.length ? view.holds.map((hold) => `- ${holdLine(hold, t, format)}`) : [t('slip.noHolds')]),
    '',
    t('slip.footer'),
  ];
}
