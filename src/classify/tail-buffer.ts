/**
 * The last lines of a step as byte ranges of the chunks they came from, bounded by a line count and a byte
 * budget (older lines fall out). Nothing is decoded until a failing step's tail is read. Each line carries the
 * number of the chunk it was read from (its `origin`, never decreasing), so the reader knows which chunks kept lines
 * point into (`origins`) and can reuse the memory of the others.
 */
export class TailBuffer {
  private readonly bufs: (Buffer | undefined)[];
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly numbers: Int32Array;
  private readonly origins: Float64Array;
  private head = 0;
  private count = 0;
  private bytes = 0;

  constructor(
    private readonly maxLines: number,
    private readonly maxBytes: number,
  ) {
    this.bufs = new Array<Buffer | undefined>(maxLines);
    this.starts = new Int32Array(maxLines);
    this.ends = new Int32Array(maxLines);
    this.numbers = new Int32Array(maxLines);
    this.origins = new Float64Array(maxLines);
  }

  get size(): number {
    return this.count;
  }

  /**
   * The chunks kept lines point into: their distinct origins, ascending. Origins never decrease along the kept
   * lines, so each next one is found by a binary search (nothing is tracked per line).
   */
  pinnedOrigins(): number[] {
    const out: number[] = [];
    const originAt = (i: number): number => this.origins[(this.head + i) % this.maxLines] as number;
    let i = 0;
    while (i < this.count) {
      const origin = originAt(i);
      out.push(origin);
      // the first kept line from a later chunk
      let lo = i + 1;
      let hi = this.count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (originAt(mid) === origin) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    return out;
  }

  push(line: number, buf: Buffer, start: number, end: number, origin = 0): void {
    const length = end - start;
    while (this.count > 0 && (this.count === this.maxLines || this.bytes + length > this.maxBytes)) this.shift();
    const at = (this.head + this.count) % this.maxLines;
    this.bufs[at] = buf;
    this.starts[at] = start;
    this.ends[at] = end;
    this.numbers[at] = line;
    this.origins[at] = origin;
    this.count++;
    this.bytes += length;
  }

  /** Forgets every line (and the chunks they pin), keeping the allocated arrays for the next step. */
  clear(): void {
    for (let i = 0; i < this.count; i++) this.bufs[(this.head + i) % this.maxLines] = undefined;
    this.head = 0;
    this.count = 0;
    this.bytes = 0;
  }

  private shift(): void {
    this.bytes -= (this.ends[this.head] as number) - (this.starts[this.head] as number);
    this.bufs[this.head] = undefined;
    this.head = (this.head + 1) % this.maxLines;
    this.count--;
  }

  /** The kept lines, oldest first, decoded as UTF-8. */
  *entries(): Generator<[number, string]> {
    for (let i = 0; i < this.count; i++) {
      const at = (this.head + i) % this.maxLines;
      yield [this.numbers[at] as number, (this.bufs[at] as Buffer).toString('utf8', this.starts[at], this.ends[at])];
    }
  }
}
