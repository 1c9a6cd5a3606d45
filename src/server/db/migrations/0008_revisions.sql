CREATE TABLE "prism_revisions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prism_revisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"prism_id" integer NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "context_before" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "context_after" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "prisms" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "prism_revisions" ADD CONSTRAINT "prism_revisions_prism_id_prisms_id_fk" FOREIGN KEY ("prism_id") REFERENCES "public"."prisms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "prism_revisions_number_idx" ON "prism_revisions" USING btree ("prism_id","number");--> statement-breakpoint
-- Responses made before prisms kept their versions: the quote context they were last anchored by.
UPDATE "annotations" SET "context_before" = "prefix", "context_after" = "suffix";
