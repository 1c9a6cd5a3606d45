ALTER TABLE "prisms" ADD COLUMN "author_listed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "prisms" SET "author_listed" = false FROM "users" WHERE "users"."id" = "prisms"."user_id" AND NOT "users"."listed";--> statement-breakpoint
-- Explore's two orders now hold only what explore shows, so a deep page is a skip along the index
-- alone: public prisms of active, listed authors; active, listed members with a public prism.
DROP INDEX "prisms_explore_idx";--> statement-breakpoint
DROP INDEX "users_explore_idx";--> statement-breakpoint
CREATE INDEX "prisms_explore_idx" ON "prisms" USING btree ("hearts_count" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "prisms"."author_active" and "prisms"."author_listed" and "prisms"."audience" = 'public';--> statement-breakpoint
CREATE INDEX "users_explore_idx" ON "users" USING btree ("last_active_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "users"."deactivated_at" is null and "users"."has_prisms" and "users"."listed";--> statement-breakpoint
-- A new prism takes its author's states.
CREATE OR REPLACE FUNCTION "prisms_before_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."audience" = 'public' THEN
    UPDATE "users" SET "has_prisms" = true WHERE "id" = NEW."user_id" AND NOT "has_prisms";
  END IF;
  SELECT "deactivated_at" IS NULL, "listed" INTO NEW."author_active", NEW."author_listed"
    FROM "users" WHERE "id" = NEW."user_id";
  RETURN NEW;
END $$;--> statement-breakpoint
-- Listing or unlisting a member's page shows or hides their prisms on explore.
CREATE FUNCTION "users_after_listing"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "prisms" SET "author_listed" = NEW."listed" WHERE "user_id" = NEW."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_after_listing" AFTER UPDATE OF "listed" ON "users"
  FOR EACH ROW WHEN (OLD."listed" IS DISTINCT FROM NEW."listed")
  EXECUTE FUNCTION "users_after_listing"();
