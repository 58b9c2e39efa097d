// Typed, human-worded errors of the API client. Messages never contain the API key.
import { isoTime } from '../model';
import { l10n } from '../l10n';

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
  | 'wrong-address'
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

  /**
   * Worth another try: only what can succeed on a retry of the same GET — a connection reset or refused, a name that
   * did not resolve, a 500/502/503/504. Never a too-large or malformed answer, a 4xx, a timeout (the wait stays
   * bounded) or anything not marked so.
   */
  get retryable(): boolean {
    return this.details.retryable === true;
  }
}

export function formatResetTime(resetAt: number | null | undefined): string {
  if (!resetAt || !Number.isFinite(resetAt)) return l10n.t('the next monthly reset');
  const iso = isoTime(resetAt);
  return iso ? iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC') : l10n.t('the next monthly reset');
}

/** 5xx that a retry can cure (not 501 Not Implemented, 505 HTTP Version Not Supported…). */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

export const errors = {
  missingUrl: () =>
    new ApiError('missing-url', l10n.t('No API address is set. Set it from your subscription e-mail (WP Bench: Set API Address, or --api-url / WPBENCH_API_URL).')),
  insecureUrl: (why: string) =>
    new ApiError('insecure-url', l10n.t('The API address is not allowed: {0}. Use an https:// address (plain http is only accepted for 127.0.0.1, ::1 and localhost).', why)),
  missingKey: () =>
    new ApiError('missing-key', l10n.t('No API key is set. Run "WP Bench: Set API Key" (or set WPBENCH_API_KEY for the command line).'), { status: 401 }),
  invalidKey: () =>
    new ApiError('invalid-key', l10n.t('The API key was rejected (401). Check the key from your subscription e-mail and set it again with "WP Bench: Set API Key".'), { status: 401 }),
  forbidden: () =>
    new ApiError('forbidden', l10n.t('The API key is revoked or suspended (403). Check your subscription, then set a new key with "WP Bench: Set API Key".'), { status: 403 }),
  quotaExceeded: (resetAt: number | null) =>
    new ApiError('quota-exceeded', l10n.t('The monthly request quota is used up (429). No more lookups are sent until {0}; cached results stay available.', formatResetTime(resetAt)), { status: 429, resetAt }),
  invalidSlug: (slug: string) =>
    new ApiError('invalid-slug', l10n.t('"{0}" is not a valid plugin or theme slug (lowercase letters, digits, "-" or "_"; at most 200 characters). Nothing was sent.', truncateForMessage(slug)), { retryable: false }),
  server: (status: number) =>
    new ApiError('server', l10n.t('The benchmark server failed (HTTP {0}). Try again later.', status), { status, retryable: TRANSIENT_STATUSES.has(status) }),
  network: (cause: string, retryable = true) =>
    new ApiError('network', l10n.t('Could not reach the benchmark server ({0}). Check the API address and your connection.', cause), { retryable }),
  timeout: (seconds: number) =>
    new ApiError('timeout', l10n.t('The benchmark server did not answer within {0} s. Try again later or raise the timeout setting.', seconds)),
  unreadable: (why: string, status?: number) =>
    new ApiError('unreadable', l10n.t('The benchmark server sent a response WP Bench cannot read ({0}). Try again later; if it persists, check the API address.', why), { status, retryable: false }),
  redirectLoop: (status: number) =>
    new ApiError('redirect', l10n.t('The benchmark server keeps redirecting (HTTP {0}, more than 2 hops on the same address). Check the API address.', status), { status, retryable: false }),
  unsendableKey: () =>
    new ApiError('invalid-key', l10n.t('The API key contains characters that cannot be sent (a line break, an invisible or non-Latin character); nothing was sent. Paste the key again with "WP Bench: Set API Key" (or fix WPBENCH_API_KEY).'), { retryable: false }),
  redirect: (status: number) =>
    new ApiError('redirect', l10n.t('The benchmark server redirected to another address (HTTP {0}); the key is not sent there. Check the API address.', status), { status, retryable: false }),
  wrongAddress: () =>
    new ApiError('wrong-address', l10n.t('The API address answers 404 to /me as well as to lookups: it is not a WP Bench API. Check the address from your subscription e-mail (it ends before /v1).'), { status: 404, retryable: false }),
  cancelled: () => new ApiError('cancelled', l10n.t('The request was cancelled.'), { retryable: false }),
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
    case 'wrong-address':
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
