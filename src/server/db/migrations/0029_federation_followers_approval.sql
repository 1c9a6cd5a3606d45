CREATE TABLE "federation_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "federation_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"reporter_actor_id" text NOT NULL,
	"reporter_domain" text NOT NULL,
	"user_id" integer NOT NULL,
	"prism_id" integer,
	"annotation_id" integer,
	"objects" text[] NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"activity_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dismissed_at" timestamp with time zone,
	CONSTRAINT "federation_reports_activity_id_unique" UNIQUE("activity_id")
);
--> statement-breakpoint
ALTER TABLE "federation_followers" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "approve_followers" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "federation_reports" ADD CONSTRAINT "federation_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_reports" ADD CONSTRAINT "federation_reports_prism_id_prisms_id_fk" FOREIGN KEY ("prism_id") REFERENCES "public"."prisms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_reports" ADD CONSTRAINT "federation_reports_annotation_id_annotations_id_fk" FOREIGN KEY ("annotation_id") REFERENCES "public"."annotations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "federation_reports_created_idx" ON "federation_reports" USING btree ("created_at");