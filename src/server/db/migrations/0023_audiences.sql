CREATE TYPE "public"."prism_audience" AS ENUM('public', 'team', 'private');--> statement-breakpoint
ALTER TABLE "prisms" ADD COLUMN "audience" "prism_audience" DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "listed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Explore names a member only for their public prisms: "has_prisms" now means "has a public prism".
CREATE OR REPLACE FUNCTION "prisms_before_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."audience" = 'public' THEN
    UPDATE "users" SET "has_prisms" = true WHERE "id" = NEW."user_id" AND NOT "has_prisms";
  END IF;
  SELECT "deactivated_at" IS NULL INTO NEW."author_active" FROM "users" WHERE "id" = NEW."user_id";
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "prisms_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "has_prisms" = false WHERE "id" = OLD."user_id" AND "has_prisms"
    AND NOT EXISTS (SELECT 1 FROM "prisms" WHERE "user_id" = OLD."user_id" AND "audience" = 'public');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "prisms_after_audience"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "has_prisms" = EXISTS (
    SELECT 1 FROM "prisms" WHERE "user_id" = NEW."user_id" AND "audience" = 'public'
  ) WHERE "id" = NEW."user_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "prisms_after_audience" AFTER UPDATE OF "audience" ON "prisms"
  FOR EACH ROW EXECUTE FUNCTION "prisms_after_audience"();
