/**
 * Copies a string out of the (large) chunk it was sliced from. V8 keeps a slice's parent string alive, so a
 * 30-character timestamp kept per step would otherwise pin a whole decoded megabyte of log.
 */
export const detach = (text: string): string => (text.length < 13 ? text : Buffer.from(text, 'utf8').toString('utf8'));
