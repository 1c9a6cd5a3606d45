ALTER TABLE "annotations" ADD COLUMN "source" text DEFAULT 'prism' NOT NULL;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "remote_actor_id" text;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "remote_handle" text;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "remote_inbox" text;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "remote_note_id" text;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "remote_note_url" text;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "reply_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_remote_note_id_unique" UNIQUE("remote_note_id");