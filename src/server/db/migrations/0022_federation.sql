CREATE TABLE "federated_prisms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "federated_prisms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"prism_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"version" timestamp with time zone NOT NULL,
	CONSTRAINT "federated_prisms_prism_id_unique" UNIQUE("prism_id")
);
--> statement-breakpoint
CREATE TABLE "federation_actors" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "federation_actors_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"username" text NOT NULL,
	"public_key" jsonb NOT NULL,
	"private_key" jsonb NOT NULL,
	"profile_digest" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "federation_actors_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "federation_followers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "federation_followers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"actor_id" text NOT NULL,
	"follow_id" text NOT NULL,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"handle" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "federation_kv" (
	"key" text[] PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "federation_queue" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "federation_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"message" jsonb NOT NULL,
	"available_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "federated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "federated_prisms" ADD CONSTRAINT "federated_prisms_user_id_federation_actors_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."federation_actors"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_followers" ADD CONSTRAINT "federation_followers_user_id_federation_actors_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."federation_actors"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "federated_prisms_user_idx" ON "federated_prisms" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "federation_actors_username_idx" ON "federation_actors" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "federation_followers_actor_idx" ON "federation_followers" USING btree ("user_id","actor_id");--> statement-breakpoint
CREATE INDEX "federation_kv_expires_idx" ON "federation_kv" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "federation_queue_available_idx" ON "federation_queue" USING btree ("available_at","id");