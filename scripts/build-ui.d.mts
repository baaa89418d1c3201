/** Types of scripts/build-ui.mjs (the dashboard's Vite build, run when ui/ changed). */
export function uiIsStale(): boolean;
export function buildUi(options?: { force?: boolean }): Promise<boolean>;
