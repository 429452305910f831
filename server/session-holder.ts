// A database session opened when first needed and opened again after it fails or ends: the desk
// endpoint's reads (workstations, the token key, who leads) go on through a database restart.
import type pg from 'pg';

export class SessionHolder {
  private readonly open: () => Promise<pg.Client>;
  private session: Promise<pg.Client> | undefined;
  private closed = false;

  constructor(open: () => Promise<pg.Client>) {
    this.open = open;
  }

  get(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('The library server is stopping.'));
    if (!this.session) {
      const opening = this.open().then((client) => {
        const forget = (): void => { if (this.session === opening) this.session = undefined; };
        client.on('error', forget);
        client.on('end', forget);
        return client;
      });
      opening.catch(() => { if (this.session === opening) this.session = undefined; });
      this.session = opening;
    }
    return this.session;
  }

  async close(): Promise<void> {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    await (await session?.catch(() => undefined))?.end().catch(() => {});
  }
}
