ALTER TYPE "public"."notification_type" ADD VALUE 'team.prism';--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "preapprove_teammates" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notify_team_prisms" boolean DEFAULT false NOT NULL;