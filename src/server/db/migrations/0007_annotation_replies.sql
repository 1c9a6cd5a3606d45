ALTER TABLE "annotations" ADD COLUMN "reply_text" text;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "reply_updated_at" timestamp with time zone;