/** Terminal styling of CLI output: colours only on a terminal, never with NO_COLOR (https://no-color.org). */
export interface Style {
  readonly enabled: boolean;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const wrap = (enabled: boolean, open: number, close: number) => (text: string): string => (enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text);

export function createStyle(enabled: boolean): Style {
  return { enabled, green: wrap(enabled, 32, 39), red: wrap(enabled, 31, 39), yellow: wrap(enabled, 33, 39), dim: wrap(enabled, 2, 22), bold: wrap(enabled, 1, 22) };
}

/** Whether stdout is a terminal (live displays and colours) and colours are allowed. */
export function terminalOf(noColor: boolean, stream: { isTTY?: boolean } = process.stdout): { tty: boolean; style: Style } {
  const tty = stream.isTTY === true;
  return { tty, style: createStyle(tty && !noColor) };
}

/** Colours an outcome: passed green, the patch's failures red, everything else (no verdict) yellow. */
export function outcomeColour(style: Style, outcome: string | null): (text: string) => string {
  if (outcome === 'passed') return style.green;
  if (outcome === 'failed' || outcome === 'patch_failed') return style.red;
  return outcome === null ? (text) => text : style.yellow;
}
