DROP INDEX "notifications_user_idx";--> statement-breakpoint
DROP INDEX "notifications_unread_idx";--> statement-breakpoint
DROP INDEX "notifications_heart_actor_idx";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "line_head" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "actor_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "actors" jsonb;--> statement-breakpoint
CREATE INDEX "notifications_lines_idx" ON "notifications" USING btree ("user_id","line_head","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_heart_head_idx" ON "notifications" USING btree ("prism_id") WHERE "notifications"."type" = 'heart' and "notifications"."line_head";--> statement-breakpoint
CREATE INDEX "notifications_heart_rest_idx" ON "notifications" USING btree ("prism_id","id" DESC NULLS LAST) WHERE "notifications"."type" = 'heart' and not "notifications"."line_head";--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read" = false and "notifications"."line_head";--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_heart_actor_idx" ON "notifications" USING btree ("actor_key","prism_id") WHERE "notifications"."type" = 'heart';--> statement-breakpoint
-- Every prism's hearts become one line: its newest heart, which counts them, names the newest
-- three and is read when all of them were; the other hearts are read, so that the unread index
-- holds lines alone.
UPDATE "notifications" SET "line_head" = ("notifications"."id" = "lines"."head_id"),
    "actor_count" = CASE WHEN "notifications"."id" = "lines"."head_id" THEN "lines"."count" ELSE 1 END,
    "actors" = CASE WHEN "notifications"."id" = "lines"."head_id" THEN "lines"."actors" END,
    "read" = "notifications"."id" <> "lines"."head_id" OR "lines"."read"
  FROM (
    SELECT "prism_id", max("id") AS "head_id", count(*)::int AS "count", bool_and("read") AS "read",
      jsonb_path_query_array(jsonb_agg("actor_name" ORDER BY "id" DESC), '$[0 to 2]') AS "actors"
    FROM "notifications" WHERE "type" = 'heart' GROUP BY "prism_id"
  ) AS "lines"
  WHERE "notifications"."prism_id" = "lines"."prism_id" AND "notifications"."type" = 'heart';--> statement-breakpoint
-- Changes to one prism's heart line wait for each other, from the first row they touch to the
-- commit, so that a line has one head and its count is exact.
CREATE FUNCTION "notifications_lock_heart_line"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1751474290, OLD."prism_id");
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "notifications_before_heart_delete" BEFORE DELETE ON "notifications"
  FOR EACH ROW WHEN (OLD."type" = 'heart') EXECUTE FUNCTION "notifications_lock_heart_line"();--> statement-breakpoint
-- New hearts join their prism's line. Each head of the line (the one it had, and every new heart,
-- which heads a line of its own as it is inserted) brings its count, names and read state: the
-- newest heads the whole, counting them all, naming the newest three, read only when all were. A
-- line of one heart is left as it was inserted: its own head, naming its own actor.
CREATE FUNCTION "notifications_after_heart_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  joined integer[];
BEGIN
  SELECT array_agg(DISTINCT "prism_id" ORDER BY "prism_id") INTO joined FROM "added" WHERE "type" = 'heart';
  IF joined IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(1751474290, "prism_id") FROM unnest(joined) AS "prism_id";
  WITH "lines" AS (
    SELECT "heads"."prism_id", max("heads"."id") AS "head_id",
      (sum("heads"."actor_count") FILTER (WHERE "named"."place" = 1))::int AS "count",
      bool_and("heads"."read") AS "read",
      jsonb_path_query_array(jsonb_agg("named"."name" ORDER BY "heads"."id" DESC, "named"."place"), '$[0 to 2]') AS "actors"
    FROM "notifications" AS "heads"
    CROSS JOIN LATERAL jsonb_array_elements(coalesce("heads"."actors", jsonb_build_array("heads"."actor_name")))
      WITH ORDINALITY AS "named" ("name", "place")
    WHERE "heads"."type" = 'heart' AND "heads"."line_head"
      AND "heads"."prism_id" = ANY (joined)
    GROUP BY "heads"."prism_id"
  )
  UPDATE "notifications" SET "line_head" = ("notifications"."id" = "lines"."head_id"),
      "actor_count" = CASE WHEN "notifications"."id" = "lines"."head_id" THEN "lines"."count" ELSE 1 END,
      "actors" = CASE WHEN "notifications"."id" = "lines"."head_id" THEN "lines"."actors" END,
      "read" = "notifications"."id" <> "lines"."head_id" OR "lines"."read"
    FROM "lines"
    WHERE "notifications"."prism_id" = "lines"."prism_id" AND "notifications"."type" = 'heart'
      AND "notifications"."line_head" AND "lines"."count" > 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "notifications_after_heart_insert" AFTER INSERT ON "notifications"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "notifications_after_heart_insert"();--> statement-breakpoint
-- Hearts taken out of a line (an actor's account deleted): what remains counts the rest, and its
-- newest heart heads it (with the read state of the head it replaces) and names the newest three.
CREATE FUNCTION "notifications_after_heart_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "notifications" SET "line_head" = true,
      "actor_count" = "line"."count_before" - "lost"."gone",
      "actors" = "named"."actors",
      "read" = CASE WHEN "lost"."head" THEN "lost"."head_read" ELSE "notifications"."read" END
    FROM (
      SELECT "prism_id", count(*)::int AS "gone", bool_or("line_head") AS "head",
        bool_and("read") FILTER (WHERE "line_head") AS "head_read",
        max("actor_count") FILTER (WHERE "line_head") AS "head_count"
      FROM "gone" WHERE "type" = 'heart' GROUP BY "prism_id"
    ) AS "lost"
    CROSS JOIN LATERAL (
      SELECT coalesce("kept"."id", (
          SELECT "rest"."id" FROM "notifications" AS "rest"
          WHERE "rest"."prism_id" = "lost"."prism_id" AND "rest"."type" = 'heart' AND NOT "rest"."line_head"
          ORDER BY "rest"."id" DESC LIMIT 1
        )) AS "head_id",
        coalesce("lost"."head_count", "kept"."actor_count") AS "count_before"
      FROM (SELECT) AS "one"
      LEFT JOIN "notifications" AS "kept" ON "kept"."prism_id" = "lost"."prism_id"
        AND "kept"."type" = 'heart' AND "kept"."line_head"
    ) AS "line"
    CROSS JOIN LATERAL (
      SELECT jsonb_path_query_array(jsonb_agg("newest"."actor_name" ORDER BY "newest"."id" DESC), '$[0 to 2]') AS "actors"
      FROM (
        (SELECT "id", "actor_name" FROM "notifications" WHERE "id" = "line"."head_id")
        UNION ALL
        (SELECT "rest"."id", "rest"."actor_name" FROM "notifications" AS "rest"
          WHERE "rest"."prism_id" = "lost"."prism_id" AND "rest"."type" = 'heart' AND NOT "rest"."line_head"
            AND "rest"."id" < "line"."head_id"
          ORDER BY "rest"."id" DESC LIMIT 2)
      ) AS "newest"
    ) AS "named"
    WHERE "notifications"."id" = "line"."head_id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "notifications_after_heart_delete" AFTER DELETE ON "notifications"
  REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT EXECUTE FUNCTION "notifications_after_heart_delete"();
