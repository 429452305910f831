// Small helpers the benchmarks share: quantiles of timings, numbers as people read them, and a
// figure printed beside its goal.

export const quantile = (values: readonly number[], q: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;
};

export const count = (n: number): string => Math.round(n).toLocaleString('en');
export const ms = (n: number): string => `${n.toFixed(1)} ms`;
export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** "p50 x ms, p95 y ms (goal ≤ g ms: met)" */
export function latency(values: readonly number[], goalMs?: number): string {
  const p95 = quantile(values, 0.95);
  const verdict = goalMs === undefined ? '' : ` (goal p95 ≤ ${goalMs} ms: ${p95 <= goalMs ? 'met' : 'MISSED'})`;
  return `p50 ${ms(quantile(values, 0.5))}, p95 ${ms(p95)}, max ${ms(Math.max(...values))} over ${values.length}${verdict}`;
}

export function atLeastGoal(value: number, goal: number): string {
  return `${value.toFixed(2)} (goal ≥ ${goal.toFixed(2)}: ${value >= goal ? 'met' : 'MISSED'})`;
}

export function atMostGoal(value: number, goal: number, unit: string): string {
  return `${value.toFixed(unit === 'MiB' ? 0 : 2)} ${unit} (goal ≤ ${goal} ${unit}: ${value <= goal ? 'met' : 'MISSED'})`;
}

/** Timings of `run`, each with `prepare` (not timed) before it. */
export function timed(times: number, run: (i: number) => void, prepare: (i: number) => void = () => {}): number[] {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    prepare(i);
    const started = performance.now();
    run(i);
    out.push(performance.now() - started);
  }
  return out;
}
