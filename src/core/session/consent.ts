// Whether a lookup may be sent at all, and the questions that decide it: a key that is set, not refused and not
// blocked; a key bound to the address it was saved for; consent in an untrusted workspace; consent to exceed the
// per-scan limit. Each question is on screen once at a time, and one the user dismissed is not asked again in this
// session (a rescan does not nag).
import { l10n } from '../l10n';
import { plural } from '../present/format';
import type { LookupItem } from '../lookup/lookupService';
import type { ApiConnection } from './connection';
import type { LookupAllOptions, SessionHost } from './types';

export type Prompt = 'untrusted' | 'limit' | 'origin';

export class LookupConsent {
  private untrustedConsent = false;
  /** Prompts on screen, and prompts the user dismissed (not asked again in this session). */
  private readonly asking = new Set<Prompt>();
  private readonly declined = new Set<Prompt>();

  /** `lookUp`: what an answer that allows more requests runs (the session's lookupAll). */
  constructor(
    private readonly host: SessionHost,
    private readonly connection: Pick<ApiConnection, 'client' | 'hasKey' | 'blockedUntil' | 'guard' | 'settings'>,
    private readonly lookUp: (opts?: LookupAllOptions) => Promise<void>,
  ) {}

  /** A question the user has not answered yet (trust or the per-scan limit); lookups wait for it, the UI does not. */
  get pending(): Prompt | undefined {
    return this.asking.has('untrusted') ? 'untrusted' : this.asking.has('limit') ? 'limit' : this.asking.has('origin') ? 'origin' : undefined;
  }

  /**
   * The key is bound to the API origin it was saved or validated for: a changed address (a settings sync, a link,
   * another profile) does not receive it until the user says so. A key saved before any address binds to the first.
   */
  async keyMayGo(): Promise<boolean> {
    const origin = this.connection.client?.origin;
    if (!origin) return false;
    const bound = this.host.keyOrigin();
    if (bound === undefined) {
      await this.host.setKeyOrigin(origin);
      return true;
    }
    if (bound === origin) return true;
    const send = l10n.t('Send the Key There');
    this.prompt('origin', l10n.t('The API address changed to {0}. Your API key was saved for {1}. Send the key to {0}?', origin, bound), [send], async (choice) => {
      if (choice !== send) return;
      await this.host.setKeyOrigin(origin);
      await this.lookUp();
    });
    return false;
  }

  /**
   * The key was saved or validated for the current address (Set API Key). Returns the undo, for a key that could not
   * be saved after all: the old key stays bound to its old address.
   */
  async bindKeyToCurrentOrigin(): Promise<() => Promise<void>> {
    const before = this.host.keyOrigin();
    await this.host.setKeyOrigin(this.connection.client?.origin);
    this.declined.delete('origin');
    return async () => void (await this.host.setKeyOrigin(before));
  }

  /** Key, rejected-key latch, quota block, key origin and trust allow `count` requests (asks when it must). */
  async mayRequest(count: number): Promise<boolean> {
    if (!this.connection.hasKey || this.connection.blockedUntil !== null) return false;
    const key = await this.host.getKey();
    if (!key || this.connection.guard.rejection(key)) return false;
    if (!(await this.keyMayGo())) return false;
    if (!this.host.isTrusted() && !this.untrustedConsent) {
      const allow = l10n.t('Allow Lookups');
      const message = plural(
        count,
        l10n.t('This workspace is not trusted. WP Bench found 1 plugin or theme; looking it up sends its slug to the benchmark API with your key.'),
        l10n.t('This workspace is not trusted. WP Bench found {0} plugins and themes; looking them up sends their slugs to the benchmark API with your key.', count),
      );
      this.prompt('untrusted', message, [allow], (choice) => choice === allow && this.allowUntrustedLookups());
      return false;
    }
    return true;
  }

  /** The user agreed to send lookups from this untrusted workspace (for this session). */
  async allowUntrustedLookups(): Promise<void> {
    this.untrustedConsent = true;
    this.declined.delete('untrusted');
    await this.lookUp();
  }

  /** More requests than the per-scan limit: all of them, or only the first `maxPerScan`, once the user says so. */
  askToExceedLimit(needed: LookupItem[]): void {
    const limit = this.connection.settings.maxPerScan;
    const all = l10n.t('Look Up All {0}', needed.length);
    const some = l10n.t('Only {0}', limit);
    const message = plural(
      needed.length,
      l10n.t('This scan would send 1 request (it counts against your monthly quota); the limit per scan is {0}.', limit),
      l10n.t('This scan would send {0} requests (each counts against your monthly quota); the limit per scan is {1}.', needed.length, limit),
    );
    this.prompt('limit', message, [all, some], (choice) => {
      if (choice === all) return this.lookUp({ only: needed, consented: true });
      if (choice === some && limit > 0) return this.lookUp({ only: needed.slice(0, limit), consented: true });
      return undefined;
    });
  }

  /** Asks once at a time; a dismissed question is not asked again in this session. */
  private prompt(which: Prompt, message: string, items: string[], onChoice: (choice: string) => unknown): void {
    if (this.asking.has(which) || this.declined.has(which)) return;
    this.asking.add(which);
    this.host.logger.info(`asking (${which}): ${message}`);
    void this.host.ask(message, ...items).then((choice) => {
      this.asking.delete(which);
      this.host.logger.info(`answer (${which}): ${choice ?? 'dismissed'}`);
      if (choice === undefined) this.declined.add(which);
      else void onChoice(choice);
    });
  }
}
