import { closeSync, openSync, writeSync } from 'node:fs';

/** GitHub's raw-log timestamp: ISO-8601 UTC with 7 fractional digits. */
export function logTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 23)}0000Z`;
}

export interface JobLogOptions {
  path: string;
  capBytes: number;
  now: () => Date;
  /** Values masked from the first line on (the service's secrets); multi-line values are masked line by line too. */
  masks?: string[];
}

/**
 * A job log in GitHub's raw format, appended line by line as output arrives. Values registered with
 * `addMask` (and the `masks` option) are replaced by `***` from then on, each line of a multi-line value too. Past `capBytes` one notice line is written and the
 * rest of the output is discarded (the process keeps running).
 */
export class JobLog {
  readonly path: string;
  private fd: number | null;
  private readonly capBytes: number;
  private readonly now: () => Date;
  private readonly masks: string[] = [];
  private written = 0;
  private truncated = false;

  constructor(options: JobLogOptions) {
    this.path = options.path;
    this.capBytes = options.capBytes;
    this.now = options.now;
    this.fd = openSync(options.path, 'w');
    for (const value of options.masks ?? []) this.addMask(value);
  }

  addMask(value: string): void {
    // each line of a multi-line value on its own (output arrives line by line); lines under 4 characters are not
    const lines = value.split(/\r?\n/).map((l) => l.trim());
    for (const candidate of [value.trim(), ...(lines.length > 1 ? lines.filter((l) => l.length >= 4) : [])]) {
      if (candidate === '' || this.masks.includes(candidate)) continue;
      this.masks.push(candidate);
    }
    this.masks.sort((a, b) => b.length - a.length);
  }

  mask(text: string): string {
    let out = text;
    for (const m of this.masks) out = out.split(m).join('***');
    return out;
  }

  get isTruncated(): boolean {
    return this.truncated;
  }

  /** Writes one or more lines (split on newlines), each with its own timestamp. */
  line(text: string): void {
    if (this.fd === null || this.truncated) return;
    const stamp = logTimestamp(this.now());
    const lines = this.mask(text).split('\n');
    const chunk = lines.map((l) => `${stamp} ${l}\n`).join('');
    const size = Buffer.byteLength(chunk);
    if (this.written + size > this.capBytes) {
      this.truncated = true;
      const note = `${stamp} ##[warning]Log truncated: the job output exceeded ${this.capBytes} bytes; further output is discarded.\n`;
      writeSync(this.fd, note);
      return;
    }
    this.written += size;
    writeSync(this.fd, chunk);
  }

  /** Lines written regardless of the cap (job footer). */
  forceLine(text: string): void {
    if (this.fd === null) return;
    writeSync(this.fd, `${logTimestamp(this.now())} ${this.mask(text)}\n`);
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}
