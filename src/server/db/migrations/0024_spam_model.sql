CREATE TYPE "public"."spam_lesson" AS ENUM('ham', 'spam');--> statement-breakpoint
CREATE TABLE "spam_models" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "spam_models_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"owner_id" integer NOT NULL,
	"model" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spam_models_owner_id_unique" UNIQUE("owner_id")
);
--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "spam_lesson" "spam_lesson";--> statement-breakpoint
ALTER TABLE "spam_models" ADD CONSTRAINT "spam_models_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;