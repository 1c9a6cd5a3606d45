DROP INDEX "prisms_hearts_idx";--> statement-breakpoint
ALTER TABLE "prisms" ADD COLUMN "author_active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "has_prisms" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "prisms_explore_idx" ON "prisms" USING btree ("hearts_count" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "prisms"."author_active";--> statement-breakpoint
CREATE INDEX "users_explore_idx" ON "users" USING btree ("last_active_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "users"."deactivated_at" is null and "users"."has_prisms";--> statement-breakpoint
UPDATE "users" SET "has_prisms" = true WHERE EXISTS (SELECT 1 FROM "prisms" WHERE "prisms"."user_id" = "users"."id");--> statement-breakpoint
UPDATE "prisms" SET "author_active" = false FROM "users" WHERE "users"."id" = "prisms"."user_id" AND "users"."deactivated_at" IS NOT NULL;--> statement-breakpoint
-- A new prism takes its author's state, and marks the author as having prisms.
CREATE FUNCTION "prisms_before_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "has_prisms" = true WHERE "id" = NEW."user_id" AND NOT "has_prisms";
  SELECT "deactivated_at" IS NULL INTO NEW."author_active" FROM "users" WHERE "id" = NEW."user_id";
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "prisms_before_insert" BEFORE INSERT ON "prisms"
  FOR EACH ROW EXECUTE FUNCTION "prisms_before_insert"();--> statement-breakpoint
-- The author of the last prism deleted has none left.
CREATE FUNCTION "prisms_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "has_prisms" = false WHERE "id" = OLD."user_id" AND "has_prisms"
    AND NOT EXISTS (SELECT 1 FROM "prisms" WHERE "user_id" = OLD."user_id");
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "prisms_after_delete" AFTER DELETE ON "prisms"
  FOR EACH ROW EXECUTE FUNCTION "prisms_after_delete"();--> statement-breakpoint
-- Deactivating or reactivating a member hides or shows their prisms on explore.
CREATE FUNCTION "users_after_deactivation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "prisms" SET "author_active" = (NEW."deactivated_at" IS NULL) WHERE "user_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_after_deactivation" AFTER UPDATE OF "deactivated_at" ON "users"
  FOR EACH ROW WHEN ((OLD."deactivated_at" IS NULL) IS DISTINCT FROM (NEW."deactivated_at" IS NULL))
  EXECUTE FUNCTION "users_after_deactivation"();
