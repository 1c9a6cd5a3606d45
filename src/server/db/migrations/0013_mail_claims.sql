-- A notification is marked mailed once the mail server accepted the message that told of it;
-- until then a process that sends it holds a claim, which it gives back when the server refused.
ALTER TABLE "notifications" ADD COLUMN "mail_claimed_at" timestamp with time zone;