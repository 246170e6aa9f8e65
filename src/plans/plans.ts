/**
 * The plans: monthly visitor-message quotas (null = unlimited) and the knowledge base's size
 * (documents, and UTF-8 bytes of their text), and the assistant's monthly model tokens (prompt +
 * completion; null = no cap). Over the token cap the rule engine answers instead of the model.
 * `webhookRules` caps the rules a tenant may have: every rule multiplies each event into deliveries.
 * `testCases` caps the owner's saved test cases: a run replays every one (and pays a model call each).
 */
export const PLANS = Object.freeze({
  free: {
    rank: 0,
    knowledgeDocuments: 20,
    knowledgeBytes: 1_000_000,
    monthlyMessages: 1_000,
    monthlyAiTokens: 200_000,
    webhookRules: 10,
    testCases: 25,
  },
  starter: {
    rank: 1,
    knowledgeDocuments: 200,
    knowledgeBytes: 10_000_000,
    monthlyMessages: 10_000,
    monthlyAiTokens: 2_000_000,
    webhookRules: 25,
    testCases: 100,
  },
  pro: {
    rank: 2,
    knowledgeDocuments: 1_000,
    knowledgeBytes: 50_000_000,
    monthlyMessages: 100_000,
    monthlyAiTokens: 20_000_000,
    webhookRules: 100,
    testCases: 500,
  },
  business: {
    rank: 3,
    knowledgeDocuments: 5_000,
    knowledgeBytes: 200_000_000,
    monthlyMessages: null,
    monthlyAiTokens: null,
    webhookRules: 500,
    testCases: 2000,
  },
} as const);

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export const isPlanName = (value: string): value is PlanName => Object.hasOwn(PLANS, value);
