/**
 * The admin page's HTML shell and its one stylesheet. The markup is static (no tenant data is
 * ever put in it server-side); /admin.js fills it in with textContent only. The stylesheet is
 * inline and allowed by its hash, so the page's CSP needs no 'unsafe-inline' for anything.
 */

export const ADMIN_CSS = `:root{color-scheme:light dark;--fg:#1b1f24;--muted:#5b6470;--bg:#fff;--panel:#f6f7f9;--line:#d8dce2;--accent:#0b5cd5;--on-accent:#fff;--ok:#136f3a;--err:#b42318}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--muted:#a3abb6;--bg:#15181c;--panel:#1e2227;--line:#363c44;--accent:#6ea8ff;--on-accent:#0b1320;--ok:#5fd08a;--err:#ff8a80}}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
.top{display:flex;gap:1rem;align-items:center;padding:.6rem 1.5rem;border-bottom:1px solid var(--line);background:var(--panel)}
.top h1{font-size:1.1rem;margin:0;flex:1}main{max-width:90rem;margin:0 auto;padding:1rem 1.5rem 3rem}
h2{font-size:1.25rem;margin:.5rem 0}h3{font-size:1.05rem;margin:1.25rem 0 .5rem}.hint{color:var(--muted);margin:.25rem 0 1rem;max-width:60rem}
button,input,select,textarea{font:inherit;color:inherit}
button{border:1px solid var(--line);background:var(--bg);border-radius:6px;padding:.3rem .75rem;cursor:pointer}
button:hover{border-color:var(--accent)}button:disabled{opacity:.5;cursor:default}
button.primary{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}
input,select,textarea{border:1px solid var(--line);border-radius:6px;padding:.3rem .5rem;background:var(--bg)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
[role=tablist]{display:flex;gap:.25rem;border-bottom:1px solid var(--line);margin-bottom:1rem;flex-wrap:wrap}
[role=tab]{border:0;border-bottom:3px solid transparent;border-radius:0;background:none;padding:.5rem .9rem;color:var(--muted)}
[role=tab][aria-selected=true]{border-bottom-color:var(--accent);color:var(--fg);font-weight:600}
.bar{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end;margin:.5rem 0}
label{display:flex;flex-direction:column;gap:.2rem;font-size:.85rem;color:var(--muted)}label.check{flex-direction:row;align-items:center;gap:.4rem}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:8px}
table{border-collapse:collapse;width:100%;font-size:.88rem}th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
thead th{background:var(--panel);font-weight:600;white-space:nowrap}tbody tr:last-child td{border-bottom:0}td.empty{color:var(--muted);text-align:center;padding:1.25rem}
td .acts{display:flex;gap:.35rem;flex-wrap:wrap}td .acts button{white-space:nowrap}code{font:.85em ui-monospace,monospace;word-break:break-all}
.err-text{color:var(--err)}.pager{display:flex;gap:.75rem;align-items:center;margin:.6rem 0}
.notice{padding:.5rem .75rem;border-radius:6px;border:1px solid var(--line);margin:.5rem 0}.notice.ok{border-color:var(--ok);color:var(--ok)}
.notice.error{border-color:var(--err);color:var(--err)}.notice ul{margin:.25rem 0 0;padding-left:1.25rem}
.confirm{display:flex;gap:.75rem;align-items:center;padding:.5rem .75rem;border:1px solid var(--accent);border-radius:6px}
fieldset{border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem}
.convo{border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem;margin-top:1rem}
.transcript{list-style:none;padding:0;margin:.5rem 0;max-height:24rem;overflow-y:auto;display:flex;flex-direction:column;gap:.4rem}
.transcript li{padding:.4rem .6rem;border-radius:8px;background:var(--panel);max-width:42rem}.transcript li.visitor{align-self:flex-end}
.transcript .who{display:block;font-size:.75rem;color:var(--muted)}.transcript li.operator{border:1px solid var(--accent)}
textarea{width:100%;max-width:42rem;min-height:4.5rem}dialog{border:1px solid var(--line);border-radius:10px;max-width:min(70rem,95vw);width:100%;color:var(--fg);background:var(--bg)}
dialog::backdrop{background:#0006}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.5rem 0 1rem}dt{color:var(--muted)}dd{margin:0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}[hidden]{display:none!important}body[data-role=agent] .managers-only{display:none}
.pre{white-space:pre-wrap;max-width:48rem}form+form{margin-top:.75rem}
code.id{word-break:normal;white-space:nowrap}.ok-text{color:var(--ok)}.error-text{color:var(--err)}.pending-text{color:var(--muted)}.preview{display:block;min-width:14rem;max-width:28rem}
.picker{list-style:none;margin:.25rem 0;padding:.25rem;border:1px solid var(--line);border-radius:6px;max-width:42rem;max-height:12rem;overflow-y:auto;background:var(--bg)}.picker li{padding:.3rem .5rem;border-radius:4px;cursor:pointer}.picker li[aria-selected=true]{background:var(--panel);outline:2px solid var(--accent)}
.badge{display:inline-block;min-width:1.5rem;text-align:center;border-radius:999px;background:var(--accent);color:var(--bg);font-weight:600;padding:0 .4rem}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(26rem,1fr));gap:1rem}
figure.chart{margin:0;padding:.75rem 1rem;border:1px solid var(--line);border-radius:8px;background:var(--panel)}
figure.chart figcaption{font-weight:600;display:flex;justify-content:space-between;gap:1rem}figure.chart figcaption span{font-weight:400;color:var(--muted)}
.chart svg{display:block;width:100%;height:auto;overflow:visible}.chart .bar{fill:var(--accent)}.chart .bar.ok{fill:var(--ok)}.chart .bar.dead{fill:var(--err)}.chart .bar.s1{fill:var(--err)}.chart .bar.s2{fill:#d9822b}.chart .bar.s3{fill:#c9a227}.chart .bar.s4{fill:#5aa469}.chart .bar.s5{fill:var(--ok)}.chart .axis{stroke:var(--line)}.chart text{fill:var(--muted);font-size:10px}`;

const th = (names: string[]) =>
  `<thead><tr>${names.map((name) => `<th scope="col">${name}</th>`).join("")}</tr></thead>`;

const table = (id: string, caption: string, columns: string[]) =>
  `<div class="scroll"><table><caption class="sr">${caption}</caption>${th(columns)}<tbody id="${id}"></tbody></table></div>`;

const pager = (prefix: string, what: string) =>
  `<div class="pager"><button type="button" id="${prefix}-prev" disabled>Previous page<span class="sr"> of ${what}</span></button><span id="${prefix}-page" aria-live="polite"></span><button type="button" id="${prefix}-next" disabled>Next page<span class="sr"> of ${what}</span></button></div>`;

const notice = (id: string) => `<div id="${id}" class="notice" hidden></div>`;

const eventSelect = (id: string, first: string) => `<select id="${id}"><option value="">${first}</option></select>`;

const TABS = [
  ["overview", "Overview"],
  ["dlq", "Dead letter queue"],
  ["deliveries", "Deliveries"],
  ["rules", "Rules"],
  ["inbox", "Hand-off inbox"],
  ["knowledge", "Knowledge"],
  ["tests", "Test"],
  ["unanswered", "Unanswered"],
  ["ai", "AI"],
  ["team", "Team"],
  ["profile", "My profile"],
] as const;

const OVERVIEW = `<h2>Overview</h2>
<p class="hint">The last 30 days, per UTC day: conversations, leads, appointments and hand-offs (from <code>GET /api/v1/analytics/summary</code>) and how many webhook deliveries succeeded (from <code>GET /api/v1/webhooks/stats</code>).</p>
${notice("overview-msg")}
<div id="overview-charts" class="charts"></div>`;

const DLQ = `<h2>Webhooks › Dead letter queue</h2>
<p class="hint">Deliveries that failed every attempt of a cycle<span id="dlq-policy"></span>. <strong>Re-trigger</strong> sends one again with the same <code>webhook_id</code> (receivers deduplicate on it), starting a fresh cycle at <code>X-Service-Attempt: 1</code>; <strong>Discard</strong> gives up on it (the delivery stays in the log as dead).<span id="dlq-retention"></span> Attempts count every cycle.</p>
<form id="dlq-filter" class="bar" novalidate>
<label>Event ${eventSelect("dlq-event", "All events")}</label>
<label>Died since (optional) <input id="dlq-since" type="datetime-local"></label>
<button type="submit">Apply filter</button><button type="button" id="dlq-bulk">Re-trigger all matching…</button>
</form>
<div id="dlq-confirm" class="confirm" hidden><span id="dlq-confirm-text"></span><button type="button" class="primary" id="dlq-confirm-yes">Re-trigger them</button><button type="button" id="dlq-confirm-no">Cancel</button></div>
${notice("dlq-msg")}
${table("dlq-rows", "Dead letters", ["Id", "Webhook id", "Event", "Rule", "Destination URL", "Attempts", "Last error", "Dead at", "Expires at", "Actions"])}
${pager("dlq", "dead letters")}`;

const DELIVERIES = `<h2>Webhooks › Deliveries</h2>
<p class="hint">Every delivery and where it stands. Open one to see each attempt: the exact request sent (headers and body), status code, error, duration and the start of the response.</p>
<form id="deliveries-filter" class="bar" novalidate>
<label>Status <select id="deliveries-status"><option value="">All statuses</option><option>pending</option><option>waiting</option><option>succeeded</option><option>dead</option><option>cancelled</option></select></label>
<button type="submit">Apply filter</button>
</form>
${notice("deliveries-msg")}
${table("deliveries-rows", "Deliveries", ["Webhook id", "Event", "Status", "Destination URL", "Attempts", "Last result", "Created", "Next attempt", "Actions"])}
${pager("deliveries", "deliveries")}`;

const RULES = `<h2>Webhooks › Rules</h2>
<p class="hint">A rule sends one event to one URL, signed with its secret (never shown again). Inactive rules match nothing. <strong>Send test</strong> queues the event's catalog example with <code>"test": true</code>. <strong>Rotate secret</strong> shows a new secret once; the old one keeps signing beside it for 24 hours. <strong>Edit</strong> also recovers the rule's failed deliveries since a time.</p>
${notice("rules-msg")}
${table("rules-rows", "Webhook rules", ["Name", "Event", "URL", "Min confidence", "Status", "Success (30 days)", "Last delivery", "Actions"])}
${pager("rules", "rules")}
<div id="rule-edit"></div>
<form id="rule-form" novalidate><fieldset><legend>New rule</legend><div class="bar">
<label>Name <input id="rule-name" name="name" autocomplete="off" aria-required="true"></label>
<label>Event ${eventSelect("rule-event", "Choose an event")}</label>
<label>URL <input id="rule-url" name="url" type="url" placeholder="https://example.com/hooks/parley" size="34" aria-required="true"></label>
<label>Secret (16–256 characters) <input id="rule-secret" name="secret" type="password" autocomplete="new-password" aria-required="true"></label>
<label>Min confidence (optional) <input id="rule-confidence" name="min_confidence" type="number" min="0" max="1" step="0.01" size="6"></label>
<label class="check"><input id="rule-active" type="checkbox" checked> Active</label>
<button type="submit" class="primary">Create rule</button></div>
${notice("rule-form-msg")}</fieldset></form>`;

const INBOX = `<h2>Hand-off inbox</h2>
<p class="hint">Chats the bot handed over to a person: who the visitor is, how long they have waited, how many of their messages you have not read, and who has the chat. Everything updates the moment it happens (a live stream; if it drops, every 10 seconds until it is back), and the tab's title counts the chats waiting. <strong>Take</strong> a chat so the team knows you answer it; open one to read it, reply (the widget shows it at once, with your name; type <kbd>/</kbd> for a canned reply), close or reopen it.</p>
<div class="bar"><button type="button" id="inbox-refresh">Refresh</button><label>Show <select id="inbox-status"><option value="handoff">Waiting for a person</option><option value="closed">Closed</option></select></label><label class="check"><input id="inbox-sound" type="checkbox" checked> Sound on a new hand-off</label><button type="button" id="inbox-notify">Notify me in the browser</button><span id="inbox-live" class="pending-text" aria-live="polite"></span></div>
<form id="inbox-search-form" class="bar" role="search"><label>Search past conversations <input id="inbox-search" type="search" maxlength="200" placeholder="Name, e-mail, phone or words"></label><button type="submit">Search</button><button type="button" id="inbox-search-clear" hidden>Back to the inbox</button></form>
${notice("inbox-msg")}
${table("inbox-rows", "Chats waiting for a person", ["Visitor", "Waiting", "Latest message", "Unread", "Who has it", "Actions"])}
${pager("inbox", "chats")}
<section id="convo" class="convo" hidden aria-labelledby="convo-title">
<h3 id="convo-title">Conversation</h3>
<dl id="convo-facts"></dl>
<div class="bar"><span id="convo-owner" aria-live="polite"></span><button type="button" id="convo-take">Take</button><button type="button" id="convo-release" hidden>Release</button><label class="managers-only">Assign to <select id="convo-assignee"><option value="">Nobody</option></select></label></div>
<ol id="convo-log" class="transcript" role="log" aria-label="Transcript"></ol>
${notice("convo-msg")}
<form id="reply-form" novalidate><label for="reply-text">Reply to the visitor (type / for a canned reply)</label><textarea id="reply-text" maxlength="4000" aria-describedby="canned-hint" aria-autocomplete="list" aria-controls="canned-pick" aria-expanded="false"></textarea>
<span id="canned-hint" class="sr">Type a slash and a few letters to insert a canned reply; arrows choose, Enter inserts, Escape closes.</span>
<ul id="canned-pick" class="picker" role="listbox" aria-label="Canned replies" hidden></ul>
<div class="bar"><button type="submit" class="primary">Send reply</button><button type="button" id="convo-reload">Reload transcript</button><button type="button" id="convo-close">Close chat</button><button type="button" id="convo-reopen" hidden>Reopen chat</button></div></form>
</section>
<section class="managers-only" aria-labelledby="canned-title">
<h3 id="canned-title">Canned replies</h3>
<p class="hint">Saved answers the whole team inserts by typing <kbd>/</kbd> and the shortcut in the reply box (at most 200).</p>
<form id="canned-form" class="bar" novalidate><label>Shortcut <input id="canned-shortcut" required maxlength="32" pattern="[a-z0-9][a-z0-9_-]*" size="12" placeholder="hours"></label><label>Reply text <textarea id="canned-text" required maxlength="2000"></textarea></label><button type="submit" class="primary" id="canned-save">Add reply</button><button type="button" id="canned-cancel" hidden>Cancel</button></form>
${notice("canned-msg")}
${table("canned-rows", "Canned replies", ["Shortcut", "Text", "Actions"])}
</section>`;

const KNOWLEDGE = `<h2>Knowledge</h2>
<p class="hint">What the assistant answers from: these documents and the bot's FAQ entries. Markdown headings (and HTML headings) cut a document into sections; each search shows the chunks the bot would read for that question, with their scores.</p>
<div class="managers-only">
<form id="knowledge-text-form" novalidate><fieldset><legend>Add text</legend><div class="bar">
<label>Title <input id="knowledge-title" maxlength="200" size="30" aria-required="true"></label>
<label>Format <select id="knowledge-format"><option value="markdown">Markdown</option><option value="text">Plain text</option><option value="html">HTML</option></select></label></div>
<label for="knowledge-content">Text</label><textarea id="knowledge-content" maxlength="65536" aria-required="true"></textarea>
<div class="bar"><button type="submit" class="primary">Add document</button></div>
${notice("knowledge-text-msg")}</fieldset></form>
<form id="knowledge-url-form" novalidate><fieldset><legend>Import a web page</legend><div class="bar">
<label>Page URL <input id="knowledge-url" type="url" placeholder="https://example.com/prices" size="40" aria-required="true"></label>
<label>Title (optional) <input id="knowledge-url-title" maxlength="200" size="24"></label>
<button type="submit" class="primary">Import page</button></div>
${notice("knowledge-url-msg")}</fieldset></form>
<h3>Sources</h3>
<p class="hint">Pages and sitemaps are fetched again on a schedule, asking the site whether anything changed: unchanged pages cost nothing, changed pages replace their documents, pages gone from a sitemap are removed. A failure keeps the documents and shows the error.</p>
<form id="source-form" novalidate><fieldset><legend>Keep a page or a sitemap in sync</legend><div class="bar">
<label>Kind <select id="source-kind"><option value="url">Web page</option><option value="sitemap">Sitemap (every page of a site)</option></select></label>
<label>Page or sitemap URL <input id="source-url" type="url" placeholder="https://example.com/sitemap.xml" size="40" aria-required="true"></label>
<button type="submit" class="primary">Add source</button></div>
${notice("source-msg")}</fieldset></form>
<form id="pdf-form" novalidate><fieldset><legend>Upload a PDF</legend><div class="bar">
<label>File <input id="pdf-file" type="file" accept="application/pdf,.pdf" aria-required="true"></label>
<label>Title (optional) <input id="pdf-title" maxlength="200" size="24"></label>
<button type="submit" class="primary">Upload PDF</button></div>
${notice("pdf-msg")}</fieldset></form>
<form id="schedule-form" class="bar" novalidate><label>Fetch pages and sitemaps again <select id="sync-interval"><option value="12h">every 12 hours</option><option value="1d">daily</option><option value="7d">weekly</option><option value="off">never (only "Sync now")</option></select></label><button type="submit">Save schedule</button></form>
${notice("schedule-msg")}
${notice("sources-msg")}
${table("source-rows", "Knowledge sources", ["Source", "Kind", "Status", "Last fetched", "Last changed", "Next sync", "Documents", "Pages", "Actions"])}
${pager("sources", "sources")}
<h3>Documents</h3>
${notice("knowledge-msg")}
${table("knowledge-rows", "Knowledge documents", ["Title", "Format", "Source", "Chunks", "Size", "Added", "Actions"])}
${pager("knowledge", "documents")}
</div>
<h3>Try a question</h3>
<form id="knowledge-search-form" class="bar" novalidate><label>Question <input id="knowledge-q" maxlength="500" size="40" aria-required="true"></label><button type="submit">Search</button></form>
${notice("knowledge-search-msg")}
${table("knowledge-hits", "Chunks the bot would read", ["#", "Score", "Source", "Text", "BM25 rank", "Vector rank"])}`;

const AI = `<h2>AI assistant</h2>
<p class="hint">The model provider that answers visitors from the knowledge. Any OpenAI-compatible API works (OpenAI, Ollama's <code>/v1</code>, vLLM, llama.cpp, LM Studio, OpenRouter). Leave a field empty to use the server's setting. Without a provider the rule engine answers, and it also answers whenever the model fails.</p>
<form id="ai-form" novalidate><fieldset><legend>Model provider</legend><div class="bar">
<label class="check"><input id="ai-enabled" type="checkbox"> Enabled</label>
<label>Base URL <input id="ai-base-url" type="url" placeholder="https://api.openai.com/v1" size="34"></label>
<label>Model <input id="ai-model" maxlength="200" placeholder="gpt-4o-mini"></label>
<label>Embedding model (optional) <input id="ai-embedding-model" maxlength="200" placeholder="text-embedding-3-small"></label></div>
<div class="bar">
<label>Provider key (write-only) <input id="ai-api-key" type="password" autocomplete="new-password" spellcheck="false" size="30"></label>
<label class="check"><input id="ai-forget-key" type="checkbox"> Forget the stored key</label>
<label>Temperature (0–2) <input id="ai-temperature" type="number" min="0" max="2" step="0.1" size="5"></label>
<label>Max reply tokens <input id="ai-max-tokens" type="number" min="16" max="4096" step="1" size="6"></label></div>
<p id="ai-key-state" class="hint"></p>
<label for="ai-instructions">Instructions for the assistant</label><textarea id="ai-instructions" maxlength="4000"></textarea>
<div class="bar"><button type="submit" class="primary">Save AI settings</button><button type="button" id="ai-test">Test connection</button></div>
${notice("ai-msg")}</fieldset></form>`;

const TESTS = `<h2>Test</h2>
<p class="hint">Questions a visitor might ask and what the answer must do, run against the bot's current configuration in a sandbox: nothing is stored — no conversation, lead, booking, webhook or quota. The newest 20 runs are kept; "Change" compares with the run before.</p>
<form id="tests-form" novalidate><fieldset><legend>Add a case</legend><div class="bar">
<label>Visitor asks <input id="tests-question" maxlength="2000" size="36" aria-required="true"></label>
<label>The answer contains <input id="tests-contains" maxlength="200" size="18"></label>
<label>and not <input id="tests-not-contains" maxlength="200" size="14"></label>
<label>Action <select id="tests-action"><option value="">any</option><option value="none">none</option><option value="lead">lead</option><option value="booking">booking</option><option value="handoff">hand-off</option></select></label>
<button type="submit" class="primary">Add case</button></div>
${notice("tests-form-msg")}</fieldset></form>
<div class="bar"><button type="button" id="tests-run" class="primary">Run all cases</button></div>
${notice("tests-msg")}
${table("tests-rows", "Test cases with the last run's results", ["Question", "Expects", "Verdict", "Engine", "Reply", "Sources", "Failed checks", "Change", "Actions"])}`;

const UNANSWERED = `<h2>Unanswered</h2>
<p class="hint">Questions the bot could not answer, grouped when they ask the same thing, the most recent first. Fix a group in one step: type the answer and add it to the FAQ (the bot answers it from the next message on), keep it as a test case whose answer must contain that text, or dismiss it.</p>
${notice("unanswered-msg")}
${table("unanswered-rows", "Unanswered questions", ["Question", "Asked", "Languages", "First seen", "Last seen", "Example sessions", "Fix"])}`;

const TEAM = `<h2>Team</h2>
<p class="hint">The people who work this tenant. <strong>Agents</strong> see the hand-off inbox, their profile and knowledge search; <strong>admins</strong> and <strong>owners</strong> see everything, and owners add and remove people. Removing someone ends their access at once.</p>
${notice("team-msg")}
${table("team-rows", "Team", ["E-mail", "Display name", "Role", "Added", "Actions"])}
<form id="team-form" novalidate><fieldset><legend>Add a person</legend><div class="bar">
<label>E-mail <input id="team-email" type="email" autocomplete="off" size="28" aria-required="true"></label>
<label>Shown to visitors as <input id="team-name" maxlength="60" size="16"></label>
<label>Password (8+ characters, for a new account) <input id="team-password" type="password" autocomplete="new-password" size="20"></label>
<label>Role <select id="team-role"><option value="agent">agent</option><option value="admin">admin</option><option value="owner">owner</option></select></label>
<button type="submit" class="primary">Add person</button></div>
${notice("team-form-msg")}</fieldset></form>`;

const PROFILE = `<h2>My profile</h2>
<form id="profile-name-form" novalidate><fieldset><legend>Display name</legend>
<p class="hint">Visitors see it on your replies (and an initial as your avatar). Empty shows "Agent".</p>
<div class="bar"><label>Visitors see me as <input id="profile-name" maxlength="60" size="24"></label><button type="submit" class="primary">Save name</button></div>
${notice("profile-name-msg")}</fieldset></form>
<form id="profile-password-form" novalidate><fieldset><legend>Password</legend><div class="bar">
<label>Current password <input id="profile-current" type="password" autocomplete="current-password" aria-required="true"></label>
<label>New password (8+ characters) <input id="profile-new" type="password" autocomplete="new-password" aria-required="true"></label>
<button type="submit" class="primary">Change password</button></div>
<p class="hint">Other browsers signed in as you are signed out.</p>
${notice("profile-password-msg")}</fieldset></form>`;

const PANELS: Record<(typeof TABS)[number][0], string> = {
  overview: OVERVIEW,
  dlq: DLQ,
  deliveries: DELIVERIES,
  rules: RULES,
  inbox: INBOX,
  knowledge: KNOWLEDGE,
  tests: TESTS,
  unanswered: UNANSWERED,
  ai: AI,
  team: TEAM,
  profile: PROFILE,
};

export function adminHtml(): string {
  const tabs = TABS.map(
    ([id, label], index) =>
      `<button type="button" role="tab" id="tab-${id}" aria-controls="panel-${id}" aria-selected="${index === 0}" tabindex="${index === 0 ? 0 : -1}">${label}</button>`,
  ).join("");
  const panels = TABS.map(
    ([id], index) =>
      `<section role="tabpanel" id="panel-${id}" aria-labelledby="tab-${id}" tabindex="0"${index === 0 ? "" : " hidden"}>${PANELS[id]}</section>`,
  ).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Parley admin</title><style>${ADMIN_CSS}</style>
<script src="/admin.js" defer></script></head>
<body><header class="top"><h1>Parley admin</h1><span id="who"></span><label id="tenant-pick-label" hidden>Tenant <select id="tenant-pick"></select></label><button type="button" id="signout" hidden>Sign out</button></header>
<main>
<section id="signin" aria-labelledby="signin-title">
<h2 id="signin-title">Sign in</h2>
<p class="hint">With your e-mail and password. The page keeps its short-lived access token in memory only; the session is renewed through a cookie that scripts cannot read and other sites cannot send. Integrators may use one of the tenant's API keys instead (kept in this tab's sessionStorage only, sent as <code>X-API-Key</code> to this server alone).</p>
<form id="signin-form" novalidate><div class="bar">
<label>E-mail <input id="signin-email" type="email" autocomplete="username" size="28"></label>
<label>Password <input id="signin-password" type="password" autocomplete="current-password" size="20"></label></div>
<div class="bar"><label>or an API key <input id="signin-key" type="password" autocomplete="off" spellcheck="false" size="40"></label><button type="submit" class="primary">Sign in</button></div></form>
${notice("signin-msg")}
<noscript><p class="notice error">This page needs JavaScript.</p></noscript>
</section>
<div id="app" hidden>
<nav role="tablist" aria-label="Admin sections">${tabs}</nav>
${panels}
</div>
</main>
<dialog id="log" aria-labelledby="log-title">
<h2 id="log-title">Delivery</h2>
<dl id="log-summary"></dl>
${notice("log-msg")}
${table("log-rows", "Attempt log", ["Cycle", "Attempt", "Started", "Duration", "Result", "Status code", "Error", "Request sent", "Response (first 1 KiB)"])}
<div class="bar"><button type="button" id="log-close">Close</button></div>
</dialog>
</body></html>`;
}
