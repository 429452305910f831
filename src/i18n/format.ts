// Dates and numbers through Intl in the chosen language. The model leaves absent fields
// undefined; anything that is not a plausible time is treated as absent, so a stray 0 never
// shows as 1970.
import { useI18n } from 'vue-i18n';

export function isPlausibleTime(ms: number | undefined): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0;
}

export function isCount(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export function useDeskFormat() {
  const { locale } = useI18n();
  return {
    date: (ms: number) => new Intl.DateTimeFormat(locale.value, { dateStyle: 'medium' }).format(ms),
    number: (value: number) => new Intl.NumberFormat(locale.value).format(value),
  };
}
