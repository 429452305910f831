// The PostgreSQL schema that holds the library mirror: the service creates it (library-mirror/
// schema.ts), desks read from it (changes.ts) with the read-only role.
export const SCHEMA = 'library_mirror';
