/** The last lines of a step, bounded by a line count and a character budget (older lines fall out). */
export class TailBuffer {
  private readonly lines: (string | undefined)[];
  private readonly numbers: Int32Array;
  private head = 0;
  private count = 0;
  private chars = 0;
  /** Lines that fell out of the window. */
  dropped = 0;

  constructor(
    private readonly maxLines: number,
    private readonly maxChars: number,
  ) {
    this.lines = new Array<string | undefined>(maxLines);
    this.numbers = new Int32Array(maxLines);
  }

  get size(): number {
    return this.count;
  }

  push(line: number, text: string): void {
    if (this.count === this.maxLines || (this.count > 0 && this.chars + text.length > this.maxChars)) this.shift();
    const at = (this.head + this.count) % this.maxLines;
    this.lines[at] = text;
    this.numbers[at] = line;
    this.count++;
    this.chars += text.length;
  }

  private shift(): void {
    this.chars -= (this.lines[this.head] as string).length;
    this.lines[this.head] = undefined;
    this.head = (this.head + 1) % this.maxLines;
    this.count--;
    this.dropped++;
  }

  *entries(): Generator<[number, string]> {
    for (let i = 0; i < this.count; i++) {
      const at = (this.head + i) % this.maxLines;
      yield [this.numbers[at] as number, this.lines[at] as string];
    }
  }
}
