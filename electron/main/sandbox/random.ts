// Deterministic randomness. Every generated value is a pure function of (seed, id, salt), so a
// record can be produced on demand for any id without generating the ones before it: that is
// what lets a 1,000,000-title catalog start instantly and cost no memory up front.

/** murmur3's finaliser: cheap, and good enough avalanche for test data. */
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a list of integers. */
export function hash32(...parts: number[]): number {
  let h = 0x2545f491;
  for (const part of parts) {
    h = fmix32(h ^ Math.imul((part | 0) ^ Math.floor(part / 0x100000000), 0x9e3779b1));
    h = (Math.imul(h, 5) + 0xe6546b64) >>> 0;
  }
  return fmix32(h);
}

/** A number in [0, 1) from the hash of the parts. */
export function unit(...parts: number[]): number {
  return hash32(...parts) / 0x100000000;
}

/** A small sequential generator (mulberry32) for values that need many draws per record. */
export class Rng {
  private state: number;

  constructor(...parts: number[]) {
    this.state = hash32(...parts);
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Picks by weight: entries are [value, weight]. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new Error('weighted pick from an empty list');
    return last[0];
  }

  digits(count: number): string {
    let out = '';
    for (let i = 0; i < count; i += 1) out += String(this.int(0, 9));
    return out;
  }
}
