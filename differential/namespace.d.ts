// Types of namespace.js (plain JS, so the differential runs it without a build), for the tests.
export declare const INSTALLED: string;
export declare const INSTALLED_BIN: string;
export declare function etcEntries(): { name: string; link: string | undefined }[];
export declare const ACCOUNT_FILES: readonly string[];
export declare function namespaceArgs(
  binds: Readonly<Record<string, string>>,
  repo: string,
  etc?: string,
): string[];
export declare function namespaceProblem(): string | undefined;
