CREATE TABLE "prism_view_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"day" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prism_views" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prism_views_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"prism_id" integer NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "view_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prisms" ADD COLUMN "top_passage" jsonb;--> statement-breakpoint
ALTER TABLE "prism_views" ADD CONSTRAINT "prism_views_prism_id_prisms_id_fk" FOREIGN KEY ("prism_id") REFERENCES "public"."prisms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "prism_views_prism_day_idx" ON "prism_views" USING btree ("prism_id","day");