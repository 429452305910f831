// How the library mirror's processes reach PostgreSQL. Over the network it is TLS with the
// server's certificate verified against the configured CA (libpq's verify-full: the chain and
// the host name, or IP, it was issued for), never less: a URL cannot turn it off. Without a
// configured CA, Node's built-in public CAs (Mozilla's list) verify it, not the OS's store. A
// Unix socket (the server on the same machine, `?host=/run/postgresql`) needs no TLS: the kernel
// carries the bytes.
import pg from 'pg';

export interface DatabaseTarget {
  /** postgres://role[:password]@host[:port]/database, or …@/database?host=/socket/folder */
  url: string;
  /** PEM: the CA that issued the server's certificate. */
  ca?: string;
  /** Used when the URL carries no password (the credentials file's, for the service). */
  password?: string;
}

export interface SessionOptions {
  /** Shown in pg_stat_activity: which instance and what for. */
  applicationName?: string;
  /** Server settings for this session (`-c name=value`), such as the leader's keepalives. */
  settings?: Record<string, string | number>;
}

const ACCEPTED_PARAMETERS = new Set(['host', 'sslmode', 'application_name']);

/**
 * libpq's form for a Unix socket names no host in the URL (postgres://role@/database?host=/run/postgresql,
 * or …@:5433/… with a port), which the WHATWG URL parser refuses: the socket folder is the host
 * then, so an empty host is read as a placeholder the `host` parameter replaces.
 */
function withPlaceholderHost(text: string): string {
  return /[?&]host=/.test(text) ? text.replace(/^(postgres(?:ql)?:\/\/[^/@?#]*@)(?=[:/])/i, '$1localhost') : text;
}

/** The pg client settings for `target`; throws (without quoting a password) when the URL is not one it accepts. */
export function clientConfig(target: DatabaseTarget, options: SessionOptions = {}): pg.ClientConfig {
  let url: URL;
  try {
    url = new URL(withPlaceholderHost(target.url));
  } catch {
    throw new Error('The database URL is not a URL (postgres://role@host:5432/database, or postgres://role@/database?host=/run/postgresql for the Unix socket).');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('The database URL must start with postgres://.');
  for (const name of url.searchParams.keys()) {
    if (!ACCEPTED_PARAMETERS.has(name)) throw new Error(`The database URL's parameter ${JSON.stringify(name)} is not one the mirror accepts (host, sslmode, application_name).`);
  }
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode !== null && sslmode !== 'verify-full') {
    throw new Error(`The database URL asks for sslmode=${sslmode}, but the connection is always verified TLS (verify-full: the certificate's chain up to the CA given and the host name it was issued for); the URL may not ask for less. Remove sslmode from the URL.`);
  }
  const socket = url.searchParams.get('host');
  const host = socket ?? decodeURIComponent(url.hostname).replace(/^\[|\]$/g, '');
  if (host === '') throw new Error('The database URL names no host.');
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database === '') throw new Error('The database URL names no database.');
  const user = decodeURIComponent(url.username);
  if (user === '') throw new Error('The database URL names no role.');
  const password = url.password === '' ? target.password : decodeURIComponent(url.password);
  const local = host.startsWith('/');
  const settings = Object.entries(options.settings ?? {}).map(([name, value]) => `-c ${name}=${value}`).join(' ');
  return {
    host, user, database,
    port: url.port === '' ? 5432 : Number(url.port),
    ...(password === undefined ? {} : { password }),
    ...(local ? {} : { ssl: { rejectUnauthorized: true, ...(target.ca ? { ca: target.ca } : {}) } }),
    application_name: options.applicationName ?? url.searchParams.get('application_name') ?? 'lending-desk-library-mirror',
    ...(settings ? { options: settings } : {}),
    keepAlive: true,
  };
}

/** A connected session of its own (not pooled): the leader's lock and writes, a desk's reads. */
export async function openSession(target: DatabaseTarget, options: SessionOptions = {}): Promise<pg.Client> {
  const client = new pg.Client(clientConfig(target, options));
  // A session that fails while idle (the server went away, pg_terminate_backend) emits 'error':
  // unheard, that would end the process. Whoever holds the session listens for 'end'.
  client.on('error', () => {});
  await client.connect();
  return client;
}
