CREATE TABLE "spent_proofs" (
	"nonce" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annotations" ADD COLUMN "signals" jsonb;--> statement-breakpoint
CREATE INDEX "spent_proofs_expires_idx" ON "spent_proofs" USING btree ("expires_at");