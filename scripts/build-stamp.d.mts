/** Types of scripts/build-stamp.mjs. */
export declare const STAMP: string
export declare function stampTime(file?: string): number | undefined
export declare function staleReason(root?: string): string | undefined
