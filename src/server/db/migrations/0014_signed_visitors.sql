CREATE TABLE "prism_view_addresses" (
	"key" text PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "annotations_visitor_hash_idx" ON "annotations" USING btree ("visitor_hash");--> statement-breakpoint
CREATE INDEX "prism_hearts_visitor_hash_idx" ON "prism_hearts" USING btree ("visitor_hash");