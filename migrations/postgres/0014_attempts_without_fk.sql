ALTER TABLE "delivery_attempts" DROP CONSTRAINT "delivery_attempts_delivery_id_deliveries_id_fk";
--> statement-breakpoint
-- Hand-written (drizzle-kit has no triggers): the cascade the foreign key did, one DELETE of the
-- attempt log per statement that deletes deliveries (retention, erasure through its events),
-- without the key's check on each attempt logged.
CREATE FUNCTION "delivery_attempts_follow_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM delivery_attempts a USING gone g WHERE a.delivery_id = g.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "deliveries_delete_attempts" AFTER DELETE ON "deliveries" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION "delivery_attempts_follow_deliveries"();
