ALTER TYPE "public"."notification_type" ADD VALUE 'approved';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'rejected';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'reply';--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "reply_text" text;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "reply_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "status_token_hash" text;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_status_token_hash_unique" UNIQUE("status_token_hash");