// A benchmark record body as the API sends it (spec section 2).
export function sampleBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    slug: 'akismet',
    type: 'plugin',
    name: 'Akismet Anti-spam',
    benchmarked: true,
    benchmarked_at: '2026-11-01 10:00:00',
    speed_score: { grade: 'A+', numeric: 97 },
    contexts: {
      activation: { ttfb_delta_ms: 12.5, memory_delta_kb: 2048, queries_delta: 2 },
      homepage: null,
      admin: { ttfb_delta_ms: 30, memory_delta_kb: 4096, queries_delta: 5 },
    },
    metadata: { active_installs: 5000000, rating: 4.7 },
    links: { profile: 'https://example.test/plugins/akismet' },
    unknown_future_field: { anything: true },
    ...overrides,
  };
}
