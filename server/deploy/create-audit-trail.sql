-- The library server's audit trail (issue #32): every patron lookup and every action staff take
-- for a patron, written by the server, kept where no desk and not even the server can rewrite it.
-- Run once by a PostgreSQL administrator, after create-database.sql, in the library mirror's
-- database:
--
--   psql -v maintenance_password_file=/root/maintenance.pw -d library_mirror -f create-audit-trail.sql
--
-- (the maintenance role's password is read from that file, never typed on the command line).
-- Optional variables (defaults in brackets): service_role [library_mirror_service], audit_owner
-- [library_audit_owner], maintenance_role [library_audit_maintenance].
--
-- Who may do what:
-- * the audit owner (NOLOGIN: nobody signs in as it) owns the schema, the table and the purge;
-- * the server's runtime role may INSERT entries and read them (a manager's read through a desk),
--   never UPDATE, DELETE or TRUNCATE;
-- * the desks' role has nothing here;
-- * the maintenance role may only call library_audit.purge(keep_days, by): it deletes what is
--   older than the library's retention, and records that it did, in the trail itself.
\set ON_ERROR_STOP on
\if :{?service_role}
\else
  \set service_role library_mirror_service
\endif
\if :{?audit_owner}
\else
  \set audit_owner library_audit_owner
\endif
\if :{?maintenance_role}
\else
  \set maintenance_role library_audit_maintenance
\endif
\if :{?maintenance_password}
\elif :{?maintenance_password_file}
  \set maintenance_password `cat :'maintenance_password_file'`
\else
  \prompt 'Password for the audit trail''s maintenance role: ' maintenance_password
\endif

CREATE ROLE :"audit_owner" NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
CREATE ROLE :"maintenance_role" LOGIN PASSWORD :'maintenance_password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
GRANT CONNECT ON DATABASE :"DBNAME" TO :"maintenance_role";

CREATE SCHEMA library_audit AUTHORIZATION :"audit_owner";
SET ROLE :"audit_owner";

CREATE TABLE library_audit.entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  staff_id text,
  staff_name text,
  staff_role text,
  workstation_id text,
  workstation_name text,
  -- lookup, borrow, return, place-hold, remove-hold; sign-in, sign-in-refused, sign-out;
  -- audit-read, audit-export; purge
  action text NOT NULL,
  library_id bigint,
  card_masked text,                  -- ••••0002: what staff may see
  card_key text,                     -- a keyed hash of library and card: finds one patron's entries, and names no card
  content_id text,
  title text,
  -- done, refused, not-done (the server refused before the partner saw it), unknown (no answer: it may have happened), sent
  outcome text NOT NULL,
  status integer,
  detail jsonb
);
CREATE INDEX entries_by_time ON library_audit.entries (at);
CREATE INDEX entries_by_card ON library_audit.entries (card_key, at);

-- Deletes what is older than `keep_days` days and records the purge (who, how much, what rule)
-- in the trail. The only way anything leaves it.
CREATE FUNCTION library_audit.purge(keep_days integer, by_whom text) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, library_audit AS $$
DECLARE
  removed bigint;
BEGIN
  IF keep_days IS NULL OR keep_days < 1 THEN
    RAISE EXCEPTION 'The audit trail keeps at least one day.';
  END IF;
  DELETE FROM library_audit.entries WHERE at < clock_timestamp() - make_interval(days => keep_days) AND action <> 'purge';
  GET DIAGNOSTICS removed = ROW_COUNT;
  INSERT INTO library_audit.entries (action, outcome, staff_name, detail)
    VALUES ('purge', 'done', by_whom, jsonb_build_object('keepDays', keep_days, 'removed', removed, 'role', session_user));
  RETURN removed;
END
$$;

RESET ROLE;
REVOKE ALL ON SCHEMA library_audit FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA library_audit FROM PUBLIC;
REVOKE ALL ON FUNCTION library_audit.purge(integer, text) FROM PUBLIC;
GRANT USAGE ON SCHEMA library_audit TO :"service_role", :"maintenance_role";
GRANT INSERT, SELECT ON library_audit.entries TO :"service_role";
GRANT EXECUTE ON FUNCTION library_audit.purge(integer, text) TO :"maintenance_role";
