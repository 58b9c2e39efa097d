// Demo API keys of the emulator. They open nothing but the local emulator.

export type Tier = 'starter' | 'pro' | 'scale';
export type KeyStatus = 'active' | 'revoked' | 'suspended';

export interface DemoKey {
  key: string;
  tier: Tier;
  /** Requests per calendar month (UTC). */
  quota: number;
  status: KeyStatus;
  /** Usage already spent in the month the emulator starts in. */
  initialUsed?: number;
  /** One line for the start-up banner. */
  label: string;
}

export const TIER_QUOTA: Record<Tier, number> = { starter: 50_000, pro: 500_000, scale: 5_000_000 };

export const DEMO_KEYS: DemoKey[] = [
  { key: 'wpb_demo_starter_7c1e4a9b2d8f3065', tier: 'starter', quota: TIER_QUOTA.starter, status: 'active', label: 'Starter, 50,000 requests/month' },
  { key: 'wpb_demo_pro_3b9d6f2a8e1c4075', tier: 'pro', quota: TIER_QUOTA.pro, status: 'active', label: 'Pro, 500,000 requests/month' },
  { key: 'wpb_demo_scale_9e2a7c4f1b6d8053', tier: 'scale', quota: TIER_QUOTA.scale, status: 'active', label: 'Scale, 5,000,000 requests/month' },
  { key: 'wpb_demo_starter_low_6d3f8b1e9c2a5074', tier: 'starter', quota: TIER_QUOTA.starter, status: 'active', initialUsed: TIER_QUOTA.starter - 3, label: 'Starter, only 3 requests left this month (then 429)' },
  { key: 'wpb_demo_revoked_5a8c2e7f3d1b9046', tier: 'starter', quota: TIER_QUOTA.starter, status: 'revoked', label: 'revoked (403)' },
  { key: 'wpb_demo_suspended_2f6b9d1c8a4e7031', tier: 'pro', quota: TIER_QUOTA.pro, status: 'suspended', label: 'suspended (403)' },
];

/** Named handles on the demo keys, for tests and benchmarks. */
export const DEMO = {
  starter: DEMO_KEYS[0].key,
  pro: DEMO_KEYS[1].key,
  scale: DEMO_KEYS[2].key,
  almostExhausted: DEMO_KEYS[3].key,
  revoked: DEMO_KEYS[4].key,
  suspended: DEMO_KEYS[5].key,
} as const;
