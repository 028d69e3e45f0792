import { Transform } from 'node:stream';

/** Counts bytes flowing through, so a progress bar can show how much of a file was read. */
export class ByteCounter extends Transform {
  bytes = 0;
  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (err?: Error | null, data?: Buffer) => void,
  ) {
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

/** A one-line progress bar on stderr (redrawn on a TTY, every 10% otherwise). */
export class ProgressBar {
  private lastDraw = 0;
  private lastDecile = -1;
  private readonly started = Date.now();

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number, label: string): void {
    const fraction = this.total > 0 ? Math.min(1, done / this.total) : 1;
    const now = Date.now();
    if (this.stream.isTTY) {
      if (now - this.lastDraw < 100 && fraction < 1) return;
      this.lastDraw = now;
      const width = 30;
      const filled = Math.round(fraction * width);
      this.stream.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${label}`,
      );
      return;
    }
    const decile = Math.floor(fraction * 10);
    if (decile === this.lastDecile) return;
    this.lastDecile = decile;
    this.stream.write(`${(fraction * 100).toFixed(0)}% ${label}\n`);
  }

  finish(label: string): void {
    this.update(this.total, label);
    if (this.stream.isTTY) this.stream.write('\n');
  }

  rate(count: number): string {
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    return `${Math.round(count / seconds).toLocaleString('en-US')}/s`;
  }
}
