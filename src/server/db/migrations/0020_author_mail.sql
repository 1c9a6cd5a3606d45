ALTER TABLE "annotations" ADD COLUMN "decision_mailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "reply_mailed_at" timestamp with time zone;