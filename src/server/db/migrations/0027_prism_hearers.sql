-- Who may hear of a change to a prism (policy.ts, `prismHearersSql`): null when anyone may (a
-- public prism), else its owner and, for a team prism, everyone who shares a team with them. A
-- function, so that a statement naming it (the heart's, run thousands of times a second) is not
-- planned with the teams' subquery each time: PL/pgSQL plans its query once per connection.
CREATE FUNCTION "prism_hearers"("owner_id" integer, "reach" "prism_audience") RETURNS integer[]
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF "reach" = 'public' THEN
    RETURN NULL;
  ELSIF "reach" = 'private' THEN
    RETURN ARRAY["owner_id"];
  END IF;
  RETURN ARRAY(
    SELECT "owner_id" UNION
    SELECT "theirs"."user_id" FROM "team_members" "mine"
    JOIN "team_members" "theirs" ON "theirs"."team_id" = "mine"."team_id"
    WHERE "mine"."user_id" = "owner_id"
  );
END $$;
