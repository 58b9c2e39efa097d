// Detection engine: finds WordPress plugins and themes as WordPress core does. Plain Node, no vscode.
export { scanWorkspace, isForeignUpdateUri, DEFAULT_MAX_FILES, type ScanOptions } from './workspace';
export { analyzeComposer, parseComposerJson, parseComposerLock, type ComposerParseResult, type InstallerPath, type InstallerRole } from './composer';
export { parseWpEnv, wpEnvSource, wpEnvSourceSlug } from './wpenv';
export { parseBlueprint, isBlueprintFile } from './blueprint';
export { lookupDecision, decideLookups, selfSlug, isListableName, wordPressOrgUriSlug, lookupExplanation, LOOKUP_NOTE } from './lookup';
export {
  parseFileHeaders,
  parseFileHeaderLocations,
  parsePluginHeaderLocation,
  parseThemeHeaderLocation,
  matchOneRegex,
  HEADER_BYTES,
  PLUGIN_HEADER_NAMES,
  THEME_HEADER_NAMES,
  type HeaderMatch,
} from './headers';
export { mergeComponents, normalizeProblems, compareComponents, compareLocations, principalLocation } from './merge';
export { pluginFileSlug } from './text';
export { AsyncFs, SlicedSyncFs, type IoMode, type ScanFs } from './fsaccess';
export { parseDeclarationDocument, isDeclarationFile } from './document';
export { selfSlugsOf } from './workspace';
