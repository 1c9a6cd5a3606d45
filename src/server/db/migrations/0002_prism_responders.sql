CREATE TYPE "public"."prism_responders" AS ENUM('anyone', 'members', 'no-one');--> statement-breakpoint
ALTER TABLE "prisms" ADD COLUMN "responders" "prism_responders" DEFAULT 'anyone' NOT NULL;