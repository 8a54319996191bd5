/** Keeps the last `capacity` bytes of a stream: a benchmark prints its result last. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = false;

  constructor(private readonly capacity: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.capacity) {
      const excess = this.size - this.capacity;
      const head = this.chunks[0];
      if (head.length <= excess) {
        this.chunks.shift();
        this.size -= head.length;
      } else {
        this.chunks[0] = head.subarray(excess);
        this.size -= excess;
      }
      this.dropped = true;
    }
  }

  get truncated(): boolean {
    return this.dropped;
  }

  /** The kept bytes as UTF-8; a character cut at the start shows as U+FFFD. */
  text(): string {
    return Buffer.concat(this.chunks, this.size).toString('utf8');
  }
}
