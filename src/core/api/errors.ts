// Typed, human-worded errors of the API client. Messages never contain the API key.
import { isoTime } from '../format';

export type ApiErrorKind =
  | 'missing-url'
  | 'insecure-url'
  | 'missing-key'
  | 'invalid-key'
  | 'forbidden'
  | 'quota-exceeded'
  | 'invalid-slug'
  | 'server'
  | 'network'
  | 'timeout'
  | 'unreadable'
  | 'redirect'
  | 'cancelled';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly details: { status?: number; resetAt?: number | null; retryable?: boolean } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number | undefined {
    return this.details.status;
  }

  /** Only network trouble and 5xx are worth another try. */
  get retryable(): boolean {
    return this.details.retryable ?? (this.kind === 'network' || this.kind === 'server');
  }
}

export function formatResetTime(resetAt: number | null | undefined): string {
  if (!resetAt || !Number.isFinite(resetAt)) return 'the next monthly reset';
  const iso = isoTime(resetAt);
  return iso ? iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC') : 'the next monthly reset';
}

export const errors = {
  missingUrl: () =>
    new ApiError('missing-url', 'No API address is set. Set it from your subscription e-mail (WP Bench: Set API Address, or --api-url / WPBENCH_API_URL).'),
  insecureUrl: (why: string) =>
    new ApiError('insecure-url', `The API address is not allowed: ${why}. Use an https:// address (plain http is only accepted for 127.0.0.1, ::1 and localhost).`),
  missingKey: () =>
    new ApiError('missing-key', 'No API key is set. Run "WP Bench: Set API Key" (or set WPBENCH_API_KEY for the command line).', { status: 401 }),
  invalidKey: () =>
    new ApiError('invalid-key', 'The API key was rejected (401). Check the key from your subscription e-mail and set it again with "WP Bench: Set API Key".', { status: 401 }),
  forbidden: () =>
    new ApiError('forbidden', 'The API key is revoked or suspended (403). Check your subscription, then set a new key with "WP Bench: Set API Key".', { status: 403 }),
  quotaExceeded: (resetAt: number | null) =>
    new ApiError('quota-exceeded', `The monthly request quota is used up (429). No more lookups are sent until ${formatResetTime(resetAt)}; cached results stay available.`, { status: 429, resetAt }),
  invalidSlug: (slug: string) =>
    new ApiError('invalid-slug', `"${truncateForMessage(slug)}" is not a valid plugin or theme slug (lowercase letters, digits, "-" or "_"; at most 200 characters). Nothing was sent.`, { retryable: false }),
  server: (status: number) =>
    new ApiError('server', `The benchmark server failed (HTTP ${status}). Try again later.`, { status }),
  network: (cause: string) =>
    new ApiError('network', `Could not reach the benchmark server (${cause}). Check the API address and your connection.`),
  timeout: (seconds: number) =>
    new ApiError('timeout', `The benchmark server did not answer within ${seconds} s. Try again later or raise the timeout setting.`),
  unreadable: (why: string, status?: number) =>
    new ApiError('unreadable', `The benchmark server sent a response WP Bench cannot read (${why}). Try again later; if it persists, check the API address.`, { status, retryable: false }),
  redirectLoop: (status: number) =>
    new ApiError('redirect', `The benchmark server keeps redirecting (HTTP ${status}, more than 2 hops on the same address). Check the API address.`, { status, retryable: false }),
  unsendableKey: () =>
    new ApiError('invalid-key', 'The API key contains characters that cannot be sent (a line break, an invisible or non-Latin character); nothing was sent. Paste the key again with "WP Bench: Set API Key" (or fix WPBENCH_API_KEY).', { retryable: false }),
  redirect: (status: number) =>
    new ApiError('redirect', `The benchmark server redirected to another address (HTTP ${status}); the key is not sent there. Check the API address.`, { status, retryable: false }),
  cancelled: () => new ApiError('cancelled', 'The request was cancelled.', { retryable: false }),
};

export function truncateForMessage(text: string, max = 60): string {
  const printable = String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return printable.length > max ? `${printable.slice(0, max)}…` : printable;
}

/** Exit codes of the command line, by error kind. */
export function exitCodeFor(error: unknown): number {
  if (!(error instanceof ApiError)) return 6;
  switch (error.kind) {
    case 'missing-url':
    case 'insecure-url':
    case 'invalid-slug':
      return 2;
    case 'missing-key':
    case 'invalid-key':
    case 'forbidden':
      return 4;
    case 'quota-exceeded':
      return 5;
    default:
      return 6;
  }
}
