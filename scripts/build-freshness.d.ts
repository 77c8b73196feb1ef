// Types of build-freshness.js for its test (the script itself stays plain JavaScript: npm runs it before any build).
export declare const STAMP: string;
export declare function staleReason(root: string): string | undefined;
