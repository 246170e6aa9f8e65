/** The API's shapes, as far as the admin page reads them (docs/webhooks.md, docs/chatbot.md). */

export interface DeadLetter {
  dead_letter_id: string;
  webhook_id: string;
  rule_id: string | null;
  event: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  dead_at: string;
  expires_at: string;
}

export interface Delivery {
  webhook_id: string;
  event: string;
  rule_id: string | null;
  url: string;
  status: string;
  attempts: number;
  cycle: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface Attempt {
  cycle: number;
  attempt: number;
  started_at: string;
  duration_ms: number;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface Rule {
  rule_id: string;
  name: string;
  event: string;
  url: string;
  conditions: { min_confidence?: number };
  active: boolean;
}

export interface Session {
  session_id: string;
  channel: string;
  status: string;
  message_count: number;
  handoff_reason: string | null;
  updated_at: string;
}

export interface Message {
  message_id: string;
  role: "visitor" | "bot" | "operator";
  text: string;
  created_at: string;
}

export interface Retriggered {
  retriggered: Array<{ dead_letter_id: string; webhook_id: string }>;
}
