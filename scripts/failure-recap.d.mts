/** Types of scripts/failure-recap.mjs (what `npm test` repeats at its end about a failed lane). */
export function failureRecap(limit?: number): { readonly lines: string[]; add(line: string): void };
