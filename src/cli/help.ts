import { SECTOR_SLUGS } from "../chat/engine/sector-templates.ts";

export const MAIN_HELP = `parley — self-hosted chatbot platform with signed webhooks, in one binary

Usage: parley <command> [options]

Commands:
  serve                 start the HTTP server and the webhook scheduler
  migrate               create or upgrade the database schema, then exit
  tenant create|list|plan|payment-secret|whatsapp
  user create|password|name|delete
  apikey create|list|revoke
  dlq list|show|retrigger|recover   the webhook dead-letter queue
  lead erase|export     erase, or export as JSON, everything held about a lead (privacy requests)
  session erase|export  the same for the visitor of a chat session
  backup FILE           write a consistent snapshot of the database, also while the server runs
  restore FILE          replace the database with a backup (refused while a server uses it)
  copy --from FILE --to postgres://…   move a SQLite install to PostgreSQL (all or nothing)
  tls status|renew      the served certificate: domains, issuer, expiry, last renewal; force a renewal
  bot test [add]        run the tenant's saved test cases (exit 1 if one fails), or add one
  knowledge add|sync    add a page or sitemap as a knowledge source; fetch the sources now

Every command takes --db FILE (env PARLEY_DB, default ./data/parley.db) and --help;
--db may be a postgres://user:password@host:5432/db URL: then PostgreSQL is the store and
several servers may share it (docs/scale-out.md);
--db and --json may also come before the command. List commands take --json, which prints
the API's field names and ISO 8601 times.

Environment:
  PARLEY_DB, PARLEY_PORT, PARLEY_HOST, PARLEY_PUBLIC_URL, PARLEY_JWT_SECRET,
  PARLEY_RETRY_DELAYS=30s,5m,30m  PARLEY_DELIVERY_TIMEOUT=10s  PARLEY_DLQ_RETENTION=7d
  PARLEY_EVENT_RETENTION=30d
  PARLEY_POLL_INTERVAL=250ms  PARLEY_DELIVERY_CONCURRENCY=512
  PARLEY_TENANT_CONCURRENCY=64  PARLEY_ENDPOINT_CONCURRENCY=16
  PARLEY_ALLOW_PRIVATE_WEBHOOKS=false  PARLEY_TRUST_PROXY=false  PARLEY_SYNC=normal|full
  PARLEY_RATE_LIMITS=on  PARLEY_LOGIN_FAILURES=20  PARLEY_LOGIN_FAILURE_WINDOW=15m
  PARLEY_LOG_LEVEL=info|error|silent
  PARLEY_WHATSAPP_API_URL=https://graph.facebook.com/v21.0
  PARLEY_WRITE_WAIT=2s  PARLEY_VISITOR_SHARE=2%  PARLEY_VISITOR_SESSIONS=20
  PARLEY_AI_BASE_URL, PARLEY_AI_MODEL, PARLEY_AI_API_KEY, PARLEY_AI_EMBEDDING_MODEL,
  PARLEY_AI_TIMEOUT=20s (the assistant's model provider; none = the rule engine answers)
  PARLEY_TLS_CERT, PARLEY_TLS_KEY (own PEM files: HTTPS on PARLEY_PORT, reloaded on SIGHUP)
  PARLEY_ACME_DOMAINS, PARLEY_ACME_EMAIL,
  PARLEY_ACME_DIRECTORY=https://acme-v02.api.letsencrypt.org/directory, PARLEY_ACME_CA_CERT
  PARLEY_HTTP_PORT=80 (redirects to HTTPS)  PARLEY_HSTS=365d (0 = off)
  PARLEY_PASSWORD, PARLEY_PAYMENT_SECRET, PARLEY_WHATSAPP_VERIFY_TOKEN,
  PARLEY_WHATSAPP_APP_SECRET, PARLEY_WHATSAPP_ACCESS_TOKEN (secrets the CLI reads instead of flags)

Examples:
  parley serve --demo
  parley tenant create --name "Smile Dental" --sector dental-clinic --origins https://smile.example
  PARLEY_PASSWORD=s3cret-pass parley user create --email ana@smile.example --tenant ten_… --name "Ana Lima"
  parley apikey create --tenant ten_…
  parley dlq list --event lead.created
  parley dlq retrigger --all --since 2026-01-15T00:00:00Z
  parley dlq recover --rule rule_… --since 2026-01-15T00:00:00Z
  parley backup /var/backups/parley-$(date +%F).db
  parley copy --from ./data/parley.db --to postgres://parley:secret@db.internal:5432/parley

Exit codes: 0 ok, 1 failure, 2 usage error.
`;

export const COMMAND_HELP: Record<string, string> = {
  serve: `Usage: parley serve [--port 3000] [--host 0.0.0.0] [--db FILE] [--demo]

Starts the HTTP API, the widget and admin pages, and the webhook scheduler. The database is
created and migrated if needed. --demo seeds, once, a demo tenant with an owner user and an
API key and prints how to use them. SIGTERM or Ctrl-C stops it cleanly.

HTTPS: with PARLEY_TLS_CERT and PARLEY_TLS_KEY (own PEM files) or PARLEY_ACME_DOMAINS
(certificates obtained and renewed automatically) the server speaks HTTPS on --port, answers
plain HTTP on PARLEY_HTTP_PORT (default 80) with 308 redirects, and sends
Strict-Transport-Security (PARLEY_HSTS). Own files are read again on SIGHUP and when they
change; a pair that cannot be served keeps the previous certificate. A bad pair at start-up
exits with code 2. Ports below 1024 without root: docs/operations.md, HTTPS.
`,
  tls: `Usage: parley tls status [--json] | parley tls renew [--json]

status prints where the certificate comes from (own files or ACME), its domains, issuer and
expiry, and for ACME when renewal is due and how the last attempt went. renew orders a new
certificate over ACME now, under the same lock as the servers: a running server answers the
CA's HTTP-01 challenge and serves the new certificate within a minute. Run it with the
server's environment (PARLEY_DB, PARLEY_ACME_*). docs/operations.md, HTTPS.
`,
  migrate: `Usage: parley migrate [--db FILE]

Applies the schema migrations embedded in this binary. Running it again changes nothing.
`,
  tenant: `Usage:
  parley tenant create --name NAME [--plan free|starter|pro|business] [--sector SECTOR] [--origins URL,URL] [--json]
  parley tenant list [--json]
  parley tenant plan TENANT_ID PLAN
  parley tenant payment-secret TENANT_ID
  parley tenant whatsapp TENANT_ID --phone-number-id ID [--json]

--sector picks the bot's starting template, one of:
  ${SECTOR_SLUGS.join(", ")} (default general).
--origins lists the web origins allowed to open widget sessions (none = any origin).
payment-secret stores the signing secret of the tenant's payment provider endpoint (Stripe's
whsec_…, 16–256 characters), read from PARLEY_PAYMENT_SECRET or the first line of standard
input, never from a flag. The provider then posts to PUBLIC_URL/api/v1/hooks/payments/TENANT_ID.
whatsapp connects a WhatsApp Business number (Cloud API): --phone-number-id is its Cloud API id;
the secrets are read only from PARLEY_WHATSAPP_VERIFY_TOKEN (any 8–256 characters, also typed
into Meta's dashboard), PARLEY_WHATSAPP_APP_SECRET (the Meta app's secret) and
PARLEY_WHATSAPP_ACCESS_TOKEN (allowed to send from the number). Meta's callback URL is then
PUBLIC_URL/api/v1/hooks/whatsapp/TENANT_ID.
`,
  user: `Usage:
  parley user create --email EMAIL --tenant TENANT_ID [--role owner|admin|agent] [--name NAME] [--json]
  parley user password --email EMAIL
  parley user name --email EMAIL (--name NAME | --clear) [--json]
  parley user delete --email EMAIL [--json]

The password is read from PARLEY_PASSWORD or standard input, never from a flag (flags end
up in shell history and process listings). An existing account is only added to the tenant
(and given --name, if one is passed). --role defaults to owner (the CLI sets up a tenant's first
account); give --role agent for a front-desk person (POST /api/v1/users defaults to agent).
--name is the display name visitors see on the user's replies in the widget (1–60 characters,
no control characters); without one they see "Agent". Replies already sent keep the name they
were sent with. Signed in with a Bearer token, the user can set it too: PATCH /api/v1/me.
delete removes the account from every tenant with its refresh tokens; a running server refuses
its access tokens from the next request on (an owner removes someone from one tenant with
DELETE /api/v1/users/USER_ID).
`,
  apikey: `Usage:
  parley apikey create --tenant TENANT_ID [--name NAME] [--json]
  parley apikey list --tenant TENANT_ID [--json]
  parley apikey revoke KEY_ID

The key is printed once; only its hash is stored. Send it as the X-API-Key header.
`,
  lead: `Usage:
  parley lead export LEAD_ID --tenant TENANT_ID [--json]
  parley lead erase LEAD_ID --tenant TENANT_ID [--json]

For a person's privacy request (GET /api/v1/leads/:id/export, DELETE /api/v1/leads/:id).
export prints everything held about the person as JSON: their leads, appointments, chat
sessions with transcripts, the events naming them with their webhook deliveries, and widget
analytics. erase deletes all of it, including events still waiting to be retried and dead
letters, and cannot be undone. The person is found by the lead's e-mail and phone.
`,
  session: `Usage:
  parley session export SESSION_ID --tenant TENANT_ID [--json]
  parley session erase SESSION_ID --tenant TENANT_ID [--json]

Like parley lead, starting from a visitor's chat session (DELETE /api/v1/sessions/:id): the
session, its transcript, any lead or appointment made in it and everything about that person.
`,
  backup: `Usage: parley backup FILE [--db FILE] [--force] [--json]

Writes a consistent snapshot of the database to FILE (SQLite VACUUM INTO), also while the
server runs: it reads one committed state and never blocks the server's writes. Refuses to
overwrite an existing FILE unless --force. Example cron line (daily at 03:15, keep 14 days):
  15 3 * * * parley backup --db /var/lib/parley/parley.db /var/backups/parley-$(date +\\%F).db && find /var/backups -name 'parley-*.db' -mtime +14 -delete
`,
  copy: `Usage: parley copy --from FILE --to postgres://USER:PASSWORD@HOST:5432/DB [--json]

Copies every table of the SQLite database FILE, ids intact, into an empty PostgreSQL
database (migrated here first), in one transaction: if anything fails — a constraint, the
connection, a row count that does not match — nothing is copied. FILE is only read; run
parley migrate --db FILE first if it is older than this binary. On a terminal it shows
rows done / total per table. Stop the server during the copy (writes made meanwhile would
not be copied), then start the servers with PARLEY_DB=postgres://… (docs/scale-out.md).
`,
  restore: `Usage: parley restore FILE [--db FILE] [--force]

Replaces the database with the backup FILE after checking that it is a sound Parley
database. Refuses while a parley server serves the database or another process has it open
(stop the server first), and refuses to replace an existing database without --force. The
next parley serve (or parley migrate) applies any migrations newer than the backup.
`,
  bot: `Usage:
  parley bot test --tenant T [--case CASE_ID]... [--json]
  parley bot test add --tenant T --question TEXT [--question TEXT]... [--contains TEXT]...
                      [--not-contains TEXT]... [--action lead|booking|handoff|none] [--source DOC_ID]
                      [--language en|pt|es] [--json]

test runs the tenant's saved test cases (or the --case ones) against its current configuration in
a sandbox: no session, message, lead, appointment, event, delivery or usage is stored. It prints a
verdict per case and exits 1 when any case fails, 0 when all pass: a deploy pipeline can run it
after changing the bot. The run is kept with the API's (the newest 20).
test add saves a case: --question once per visitor turn (several make a short conversation, the
last answer is checked), and at least one expectation. Texts match ignoring case and accents.

Examples:
  parley bot test add --tenant ten_… --question "What are your opening hours?" --contains Monday
  parley bot test --tenant ten_… --json
`,
  knowledge: `Usage:
  parley knowledge add --tenant T (--url URL [--title T] | --sitemap URL) [--no-wait] [--json]
  parley knowledge sync --tenant T [--source SOURCE_ID] [--json]

add keeps a page or a sitemap as a knowledge source, as the API does: a page is fetched at once,
a sitemap is read and its pages imported before the command prints each page count; with
--no-wait it prints the pending source and a running server imports the pages within seconds.
A source that cannot be read is refused with nothing kept.

sync fetches the tenant's URL and sitemap knowledge sources now (or only --source), as the
schedule does: conditional requests, unchanged pages skipped, changed pages re-chunked, pages
gone from a sitemap removed, a failure recorded with the documents kept. Prints each source's
status and page counts; exits 1 when a source failed. Sources are also added with the API
(POST /api/v1/knowledge/sources) or the admin page; see docs/knowledge.md.

Examples:
  parley knowledge add --tenant ten_… --sitemap https://smile.example/sitemap.xml
  parley knowledge sync --tenant ten_…
`,
  dlq: `Usage:
  parley dlq list [--tenant T] [--event E] [--since ISO] [--limit N] [--json]
  parley dlq show DEAD_LETTER_ID [--json]
  parley dlq retrigger DEAD_LETTER_ID...
  parley dlq retrigger --all [--tenant T] [--event E] [--since ISO]
  parley dlq recover --rule RULE_ID --since ISO [--json]

A dead letter is a webhook delivery whose every attempt failed; it is kept for
PARLEY_DLQ_RETENTION (7d). Re-triggering moves it back to a fresh cycle of attempts with
the same webhook_id (receivers dedupe on it). Works while the server runs: the server
sends it within one poll interval. Without --tenant, every tenant's dead letters.

recover: after a receiver is fixed, every delivery of the rule created since --since that
dead-lettered or is waiting for a retry starts a fresh cycle now (same webhook_id).
`,
};
