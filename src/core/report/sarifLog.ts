// The frame every SARIF 2.1.0 log of WP Bench shares: the schema, the tool and the repository root. The check's
// report (sarif.ts), the findings' (findingsFormats.ts) and the regression's (regressionFormats.ts) put their rules
// and results in it; its own module so that none of them imports another for it.

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The tool's public page (the npm package the README's `npx wp-bench` runs). */
export const INFORMATION_URI = 'https://www.npmjs.com/package/wp-bench';

export interface SarifToolOptions {
  toolVersion?: string;
  informationUri?: string;
}

/** A SARIF 2.1.0 log of one run of WP Bench, paths relative to the repository root (%SRCROOT%). */
export function sarifLog(rules: unknown[], results: unknown[], properties: Record<string, unknown>, opts: SarifToolOptions = {}) {
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'WP Bench',
            informationUri: opts.informationUri ?? INFORMATION_URI,
            ...(opts.toolVersion ? { version: opts.toolVersion, semanticVersion: opts.toolVersion } : {}),
            rules,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository root.' } } },
        results,
        properties,
      },
    ],
  };
}
