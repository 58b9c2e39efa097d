// The messages a failed lookup shows: one per problem, not one per slug. A scan of 300 slugs that meets a bad key,
// a used-up quota or a wrong address says so once; a new key (or a new address) may be told about again.
import { l10n } from '../l10n';
import type { ApiError } from '../api/errors';
import type { SessionHost } from './types';

export class Notices {
  private notified = { authKind: '', quotaReset: 0, wrongAddress: false };
  /** Notifications shown, by error kind (tests check that a 300-slug scan shows one, not 300). */
  readonly shown: Record<string, number> = {};

  /** `quotaChanged`: a quota notice also changes what the status bar shows (blocked until the reset). */
  constructor(
    private readonly host: Pick<SessionHost, 'error' | 'runCommand' | 'logger'>,
    private readonly quotaChanged: () => void,
  ) {}

  /** A new key: its refusal and its quota block are news again. */
  keyChanged(): void {
    this.notified.authKind = '';
    this.notified.quotaReset = 0;
  }

  /** A new client, or the same address checked again: a wrong address is said again if still wrong. */
  addressChanged(): void {
    this.notified.wrongAddress = false;
  }

  /** One message per problem: a scan of 300 slugs that hits a bad key shows it once, not 300 times. */
  async report(error: ApiError): Promise<void> {
    const count = () => (this.shown[error.kind] = (this.shown[error.kind] ?? 0) + 1);
    if (error.kind === 'quota-exceeded') {
      const reset = error.details.resetAt ?? 0;
      if (this.notified.quotaReset === reset) return;
      this.notified.quotaReset = reset;
      count();
      this.quotaChanged();
      const show = l10n.t('Show Account');
      void this.host.error(error.message, show).then((c) => c === show && this.host.runCommand('wpBench.showAccount'));
      return;
    }
    if (error.kind === 'invalid-key' || error.kind === 'forbidden' || error.kind === 'missing-key') {
      if (this.notified.authKind === error.kind) return;
      this.notified.authKind = error.kind;
      count();
      const setKey = l10n.t('Set API Key');
      const choice = await this.host.error(error.message, setKey);
      if (choice === setKey) await this.host.runCommand('wpBench.setApiKey');
      return;
    }
    if (error.kind === 'wrong-address') {
      if (this.notified.wrongAddress) return;
      this.notified.wrongAddress = true;
      count();
      const setUrl = l10n.t('Set API Address');
      const choice = await this.host.error(error.message, setUrl);
      if (choice === setUrl) await this.host.runCommand('wpBench.setApiUrl');
      return;
    }
    this.host.logger.warn(error.message);
  }
}
