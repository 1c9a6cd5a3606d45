CREATE TABLE "federation_domains" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "federation_domains_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"domain" text NOT NULL,
	"policy" text DEFAULT 'open' NOT NULL,
	"delivery_failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"last_failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "federation_domains_domain_unique" UNIQUE("domain")
);
--> statement-breakpoint
CREATE TABLE "federation_tombstones" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "federation_tombstones_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"username" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "federation_tombstones_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE INDEX "federation_tombstones_username_idx" ON "federation_tombstones" USING btree (lower("username"));