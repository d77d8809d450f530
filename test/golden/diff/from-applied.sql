-- kubectl ptah diff application/storefront: from the applied plan to the current plan
-- removed (safe: table customers added):
-- -- POSTGRES TABLE: customers --
-- CREATE TABLE "customers" (
--   "id" bigint PRIMARY KEY NOT NULL,
--   "email" text NOT NULL
-- )
-- added (safe: column customers.signed_up_at added):
ALTER TABLE "customers" ADD COLUMN "signed_up_at" timestamptz;
-- added (warning: function touch replaced):
CREATE OR REPLACE FUNCTION "touch"() RETURNS trigger AS $body$
BEGIN
  NEW.updated_at := now(); -- keep; going
  RETURN NEW;
END;
$body$ LANGUAGE plpgsql SECURITY DEFINER;
-- added (info: reference row settings/motd):
INSERT INTO "settings" ("key", "value") VALUES ('motd', 'a; b <c> & "d"'); /* not; split */;
-- added (warning: grant to reporting):
GRANT SELECT ON "customers" TO "reporting";
