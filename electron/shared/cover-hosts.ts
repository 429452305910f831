// Where cover images come from, over https only: the renderer's content security policy allows
// exactly these hosts (electron/main/app/security.ts), so a cover the service names anywhere else
// shows the quiet placeholder instead.

/** The partner service's cover host, as its records name it (`coverImageUrl`, e.g. `https://cover.hoopladigital.com/…_270.jpeg`). */
export const PARTNER_COVER_HOSTS: readonly string[] = ['cover.hoopladigital.com'];

/** The built-in sandbox's own host for its title pages and covers: `.invalid` never resolves, so no desk is sent to somebody else's server. */
export const SANDBOX_HOST = 'sandbox.lending-desk.invalid';
