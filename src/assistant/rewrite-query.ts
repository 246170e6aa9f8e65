import { createChatCompletion, ProviderError } from "./openai-client.ts";
import type { TranscriptLine } from "./prompt.ts";
import type { AiSettings } from "./settings.ts";

/**
 * The search query of a turn, written by the model: the visitor's latest message as a
 * standalone question ("and can I pay for it monthly?" after "porcelain crown?" becomes "Can I
 * pay for a porcelain crown monthly?"), plus its English translation when the visitor wrote in
 * another language, so a Portuguese or Spanish question finds English documents. One small
 * call with its own short timeout; any failure gives null and the caller searches the raw
 * message with the previous question carried at lower weight.
 */

export const REWRITE_INSTRUCTIONS =
  "You turn a website visitor's latest chat message into search queries for the business's knowledge base. " +
  "Using the conversation for context, write the latest message as one standalone question (spell out what 'it', 'that one' or 'and on saturdays?' refer to). " +
  "Reply with that question on the first line and, if it is not in English, its English translation on a second line. No other text.";

export const REWRITE_TIMEOUT_MS = 4_000;
const REWRITE_MAX_TOKENS = 80;
const CONTEXT_LINES = 6;
const MAX_QUERY_CHARS = 300;

export interface RewriteUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export async function rewriteSearchQuery(
  settings: AiSettings,
  transcript: readonly TranscriptLine[],
  message: string,
  usage: RewriteUsage,
): Promise<string[] | null> {
  const conversation = transcript
    .slice(-CONTEXT_LINES)
    .map((line) => `${line.role === "visitor" ? "Visitor" : "Business"}: ${line.text}`)
    .join("\n");
  try {
    const completion = await createChatCompletion(
      { ...settings.endpoint, timeoutMs: Math.min(settings.endpoint.timeoutMs, REWRITE_TIMEOUT_MS) },
      {
        model: settings.model,
        messages: [
          { role: "system", content: REWRITE_INSTRUCTIONS },
          {
            role: "user",
            content: `${conversation ? `Conversation:\n${conversation}\n\n` : ""}Latest message: ${message}`,
          },
        ],
        temperature: 0,
        max_tokens: REWRITE_MAX_TOKENS,
      },
    );
    usage.calls += 1;
    usage.promptTokens += completion.usage.promptTokens;
    usage.completionTokens += completion.usage.completionTokens;
    const lines = completion.text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .slice(0, 2)
      .map((line) => line.slice(0, MAX_QUERY_CHARS));
    return lines.length > 0 ? lines : null;
  } catch (error) {
    if (error instanceof ProviderError) return null;
    throw error;
  }
}
