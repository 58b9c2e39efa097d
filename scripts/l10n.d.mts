// Types of scripts/l10n.mjs for the unit test.
export interface Finding {
  file: string;
  line: number;
  text: string;
}
export const BUNDLE: string;
export function uiSources(): string[];
export function scanFile(file: string): { messages: string[]; dynamic: Finding[]; bare: Finding[] };
export function extract(files?: string[]): { bundle: Record<string, string>; dynamic: Finding[]; bare: Finding[] };
