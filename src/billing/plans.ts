/** The plans and their monthly visitor-message quotas; null = unlimited. */
export const PLANS = Object.freeze({
  free: { rank: 0, monthlyMessages: 1_000 },
  starter: { rank: 1, monthlyMessages: 10_000 },
  pro: { rank: 2, monthlyMessages: 100_000 },
  business: { rank: 3, monthlyMessages: null },
} as const);

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export const isPlanName = (value: string): value is PlanName => Object.hasOwn(PLANS, value);
