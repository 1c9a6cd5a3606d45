CREATE INDEX "annotations_created_idx" ON "annotations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "prism_hearts_created_idx" ON "prism_hearts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "prisms_created_idx" ON "prisms" USING btree ("created_at");