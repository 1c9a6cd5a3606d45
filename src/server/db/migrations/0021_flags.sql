CREATE TYPE "public"."anonymous_links" AS ENUM('allowed', 'held', 'spam');--> statement-breakpoint
CREATE TYPE "public"."anonymous_responses" AS ENUM('check', 'hold', 'members');--> statement-breakpoint
CREATE TYPE "public"."flag_reason" AS ENUM('spam', 'abuse', 'private', 'other');--> statement-breakpoint
CREATE TABLE "annotation_flags" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "annotation_flags_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"annotation_id" integer NOT NULL,
	"user_id" integer,
	"visitor_hash" text,
	"reason" "flag_reason" NOT NULL,
	"note" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "annotation_flags_flagger" CHECK ("annotation_flags"."user_id" is not null or "annotation_flags"."visitor_hash" is not null)
);
--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "silenced" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "anonymous_responses" "anonymous_responses" DEFAULT 'check' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "anonymous_links" "anonymous_links" DEFAULT 'held' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "watched_words" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "silenced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "annotation_flags" ADD CONSTRAINT "annotation_flags_annotation_id_annotations_id_fk" FOREIGN KEY ("annotation_id") REFERENCES "public"."annotations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_flags" ADD CONSTRAINT "annotation_flags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "annotation_flags_user_idx" ON "annotation_flags" USING btree ("annotation_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "annotation_flags_visitor_idx" ON "annotation_flags" USING btree ("annotation_id","visitor_hash");--> statement-breakpoint
CREATE INDEX "annotation_flags_user_id_idx" ON "annotation_flags" USING btree ("user_id");