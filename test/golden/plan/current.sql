ALTER TABLE "customers" ADD COLUMN "signed_up_at" timestamptz;
CREATE OR REPLACE FUNCTION "touch"() RETURNS trigger AS $body$
BEGIN
  NEW.updated_at := now(); -- keep; going
  RETURN NEW;
END;
$body$ LANGUAGE plpgsql SECURITY DEFINER;
INSERT INTO "settings" ("key", "value") VALUES ('motd', 'a; b <c> & "d"'); /* not; split */;
GRANT SELECT ON "customers" TO "reporting";
