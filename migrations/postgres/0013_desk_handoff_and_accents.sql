ALTER TABLE "handoffs" ADD COLUMN "taken_over" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A hand-off's time is kept once, in handoffs (the inbox reads it there, beside the reply waits).
-- A chat a person took over by replying had it in session_desk only: it becomes that chat's
-- hand-off, marked taken over (no visitor waited, so it is not a reply wait), its first reply
-- the first operator message from then on. Whether it came within the team's hours cannot be
-- worked out here (the tenant's weekly hours in its time zone), so it counts as within them: a
-- person was answering at that moment.
INSERT INTO "handoffs" ("session_id", "tenant_id", "handoff_at", "within_business_hours", "taken_over", "first_reply_at")
	SELECT k."session_id", k."tenant_id", k."handoff_at", true, true,
		(SELECT min(m."created_at") FROM "chat_messages" AS m
			WHERE m."session_id" = k."session_id" AND m."role" = 'operator' AND m."created_at" >= k."handoff_at")
	FROM "session_desk" AS k
	WHERE k."handoff_at" IS NOT NULL
	ON CONFLICT ("session_id") DO NOTHING;--> statement-breakpoint
ALTER TABLE "session_desk" DROP COLUMN "handoff_at";--> statement-breakpoint
-- Search folds Latin diacritics as SQLite's FTS5 does (unicode61 remove_diacritics 2): the 243
-- letters of U+00C0–U+0233 it folds, to their base letter in lower case, and the 25 combining
-- marks it drops. translate() looks each character up in its list in order, so the list starts
-- with ASCII letters and the accents of pt, es, fr, de and it; a text with none of these
-- characters skips it.
CREATE FUNCTION "parley_fold_accents"("body" text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT CASE WHEN $1 ~ '[\u00c0-\u0233\u0300-\u0331]'
		THEN translate($1,
			'eaosrindmutclpvghqbfzjxkwy0123456789éãçáíóêúàõâôèñüöäùìòëïîûÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝåýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžſƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲỵ̧̨̛̤̥̦̭̮̰̱̄̀́̂̃̄̆̇̈̉̊̋̌̏̑',
			'eaosrindmutclpvghqbfzjxkwy0123456789eacaioeuaoaoenuoauioeiiuaaaaaaceeeeiiiinooooouuuuyayyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzsoouuaaiioouuuuuuuuuuaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyy')
		ELSE $1 END
$$;--> statement-breakpoint
-- Each word is folded after the parser split the text: only the words with accents pay for it.
-- The function keeps the schema it was made in: index maintenance (VACUUM, ANALYZE, REINDEX) may
-- run it with a search_path of pg_catalog only, where parley_fold_accents would not be found.
CREATE OR REPLACE FUNCTION "parley_search_terms"("tenant_id" text, "body" text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
	SET search_path FROM CURRENT AS $$
	SELECT array_to_tsvector(ARRAY(
		SELECT lower(regexp_replace(substr($1, 5), '[^A-Za-z0-9]', '', 'g')) || parley_fold_accents(t.lexeme)
		FROM unnest(to_tsvector('simple', regexp_replace($2, '[[:space:][:punct:]]+', ' ', 'g'))) AS t))
$$;--> statement-breakpoint
-- The terms already made with accents are made again (the others come out the same), and the
-- leads' expression index over the function is rebuilt.
UPDATE "chat_message_terms" AS t SET "terms" = parley_search_terms(m."tenant_id", m."text")
	FROM "chat_messages" AS m
	WHERE m."id" = t."message_id" AND m."text" ~ '[\u00c0-\u0233\u0300-\u0331]';--> statement-breakpoint
REINDEX INDEX "leads_search_idx";
