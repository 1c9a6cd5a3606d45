-- Every process keeps the members behind recent sessions in memory (the session cache). Any
-- change to a member or to a session, whichever statement or process makes it, tells every
-- process to forget that member's sessions when it commits. Touches (a session's last_seen_at
-- moving on, a member's last_active_at, a confirmation) change nothing a session resolves to.
CREATE FUNCTION "forget_member_sessions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The member's id is in the column the trigger names: users.id, sessions.user_id.
  PERFORM pg_notify('prism_sessions', to_jsonb(OLD) ->> TG_ARGV[0]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_forget_sessions" AFTER UPDATE ON "users"
  FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_active_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_active_at'))
  EXECUTE FUNCTION "forget_member_sessions"('id');--> statement-breakpoint
CREATE TRIGGER "users_deleted_forget_sessions" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "forget_member_sessions"('id');--> statement-breakpoint
CREATE TRIGGER "sessions_forget" AFTER UPDATE ON "sessions"
  FOR EACH ROW WHEN (NEW."last_seen_at" < OLD."last_seen_at"
    OR (to_jsonb(OLD) - 'last_seen_at' - 'confirmed_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_seen_at' - 'confirmed_at'))
  EXECUTE FUNCTION "forget_member_sessions"('user_id');--> statement-breakpoint
CREATE TRIGGER "sessions_deleted_forget" AFTER DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "forget_member_sessions"('user_id');
