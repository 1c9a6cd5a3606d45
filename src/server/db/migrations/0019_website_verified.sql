ALTER TABLE "users" ADD COLUMN "website_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "website_checked_at" timestamp with time zone;