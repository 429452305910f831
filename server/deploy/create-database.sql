-- The library server's database (the library mirror), its two roles and its schema. Run once on
-- the database's machine by a PostgreSQL administrator, as docs/library-server.md says ("The
-- database and its two roles"):
--
--   sudo -u postgres psql -f /opt/lending-desk/server/deploy/create-database.sql
--
-- psql asks for each role's password (twice, without showing it) and sends the server only its
-- SCRAM hash: no password is ever on a command line, in the shell's history or in the server's
-- log. Without a terminal psql reads the answers from standard input. Optional variables
-- (defaults in brackets): database [library_mirror], service_role [library_mirror_service],
-- desk_role [library_mirror_desk]. (The tests also pass service_password and desk_password as
-- variables; IT does not.) The server creates and upgrades the tables itself (its migrations)
-- and grants the desks' role SELECT on the mirror's tables. The tests run this very file.
\set ON_ERROR_STOP on
\if :{?database}
\else
  \set database library_mirror
\endif
\if :{?service_role}
\else
  \set service_role library_mirror_service
\endif
\if :{?desk_role}
\else
  \set desk_role library_mirror_desk
\endif

-- The server's role owns the mirror's schema and everything in it; it cannot create roles,
-- databases or other schemas.
CREATE ROLE :"service_role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
-- The desks' role reads the mirror and nothing else. Read-only transactions by default too (a
-- second line behind the grants, which are what actually refuse a write).
CREATE ROLE :"desk_role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
ALTER ROLE :"desk_role" SET default_transaction_read_only = on;

-- Each role's password: asked for here (the library server's goes into its credentials file as
-- databasePassword; the desks' into each desk's keychain).
\if :{?service_password}
  ALTER ROLE :"service_role" PASSWORD :'service_password';
\else
  \echo 'The password of' :service_role '(the library server''s role; it goes into its credentials file):'
  \password :"service_role"
\endif
\if :{?desk_password}
  ALTER ROLE :"desk_role" PASSWORD :'desk_password';
\else
  \echo 'The password of' :desk_role '(the desks'' read-only role; it goes into each desk''s keychain):'
  \password :"desk_role"
\endif

-- Owned by the administrator, not the server: the server cannot change who may connect.
CREATE DATABASE :"database" ENCODING 'UTF8' TEMPLATE template0;
\connect :"database"

-- Nobody connects, makes temporary tables or uses the public schema unless granted here.
REVOKE ALL ON DATABASE :"database" FROM PUBLIC;
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"database" TO :"service_role"; -- TEMPORARY: its COPY staging tables
GRANT CONNECT ON DATABASE :"database" TO :"desk_role";

-- Large objects are the one thing PUBLIC may write in any database: not in this one.
REVOKE EXECUTE ON FUNCTION lo_create(oid), lo_creat(integer), lo_from_bytea(oid, bytea) FROM PUBLIC;

CREATE SCHEMA library_mirror AUTHORIZATION :"service_role";
