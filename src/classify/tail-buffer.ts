/** The last lines of a step, bounded by a line count and a character budget (older lines fall out). */
export class TailBuffer {
  private readonly lines: (string | undefined)[];
  private readonly numbers: Int32Array;
  private head = 0;
  private size = 0;
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

  push(line: number, text: string): void {
    if (this.size === this.maxLines || (this.size > 0 && this.chars + text.length > this.maxChars)) this.shift();
    const at = (this.head + this.size) % this.maxLines;
    this.lines[at] = text;
    this.numbers[at] = line;
    this.size++;
    this.chars += text.length;
  }

  private shift(): void {
    this.chars -= (this.lines[this.head] as string).length;
    this.lines[this.head] = undefined;
    this.head = (this.head + 1) % this.maxLines;
    this.size--;
    this.dropped++;
  }

  *entries(): Generator<[number, string]> {
    for (let i = 0; i < this.size; i++) {
      const at = (this.head + i) % this.maxLines;
      yield [this.numbers[at] as number, this.lines[at] as string];
    }
  }
}
