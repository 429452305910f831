-- The library mirror's database, its two roles and its schema. Run once by a PostgreSQL
-- administrator (a superuser, or a role with CREATEROLE and CREATEDB) with psql:
--
--   psql -v service_password='…' -v desk_password='…' -f create-database.sql
--
-- Optional variables (defaults in brackets): database [library_mirror], service_role
-- [library_mirror_service], desk_role [library_mirror_desk]. The service creates and upgrades
-- the tables itself (its migrations) and grants the desks' role SELECT on the mirror's tables.
-- docs/library-mirror.md explains each step; the tests run this very file.
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

-- The service's role owns the mirror's schema and everything in it; it cannot create roles,
-- databases or other schemas.
CREATE ROLE :"service_role" LOGIN PASSWORD :'service_password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
-- The desks' role reads the mirror and nothing else. Read-only transactions by default too (a
-- second line behind the grants, which are what actually refuse a write).
CREATE ROLE :"desk_role" LOGIN PASSWORD :'desk_password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
ALTER ROLE :"desk_role" SET default_transaction_read_only = on;

-- Owned by the administrator, not the service: the service cannot change who may connect.
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
