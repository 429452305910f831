// The service allows about 100 requests a minute. Every request the sync makes first takes a
// token from this bucket, so all phases together stay under the limit; 429s are still
// retried by the client, honouring Retry-After.
export class RateLimiter {
  private tokens: number;
  private last: number;
  private readonly perMinute: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(perMinute: number, now: () => number = Date.now, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))) {
    this.perMinute = perMinute;
    this.tokens = Math.min(perMinute, 10); // a small burst, then the steady rate
    this.last = now();
    this.now = now;
    this.sleep = sleep;
  }

  async take(): Promise<void> {
    for (;;) {
      const now = this.now();
      this.tokens = Math.min(this.perMinute, this.tokens + ((now - this.last) * this.perMinute) / 60_000);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(Math.ceil(((1 - this.tokens) * 60_000) / this.perMinute));
    }
  }
}
