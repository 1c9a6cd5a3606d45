-- UNLOGGED by hand (drizzle-kit writes no such tables): counters need no WAL, and a crash may forget them.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
