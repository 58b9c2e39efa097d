// The core's way to localise what VS Code shows. English by default (the CLI and reports stay English); the
// extension plugs in vscode.l10n.t at activation, so the same `l10n.t('…', …)` calls read the user's language
// from l10n/bundle.l10n.<locale>.json. Messages use {0}, {1}… placeholders, as vscode.l10n.t does.
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** English: fills {0}, {1}… from the arguments, as vscode.l10n.t does without a bundle. */
export function formatMessage(message: string, ...args: Array<string | number | boolean>): string {
  return message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

let translate: Translate = formatMessage;

export const l10n = {
  t(message: string, ...args: Array<string | number | boolean>): string {
    return translate(message, ...args);
  },
};

/** Set by the extension (vscode.l10n.t); reset to English with no argument. */
export function setTranslator(t: Translate = formatMessage): void {
  translate = t;
}
