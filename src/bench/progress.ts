/**
 * Progress of a long benchmark run on the terminal: episodes done of total, elapsed time, ETA
 * (from the mean time per episode so far), and the running success rate. Redraws one line on a TTY,
 * prints a line every `every` episodes otherwise (CI logs).
 */
export class BenchProgress {
  private done = 0;
  private successes = 0;
  private readonly started = Date.now();

  constructor(private readonly total: number, private readonly alreadyDone: number, private readonly out: NodeJS.WriteStream = process.stderr, private readonly every = 5) {}

  /** Records one finished episode and redraws. */
  episode(success: boolean, label: string): void {
    this.done++;
    if (success) this.successes++;
    const line = this.line(label);
    if (this.out.isTTY) this.out.write(`\r\x1b[2K${line}`);
    else if (this.done % this.every === 0 || this.done === this.total) this.out.write(`${line}\n`);
  }

  /** The status line, e.g. `12/40 episodes (3 resumed) · 1m05s · ETA 2m31s · success 83.3% · unit/straight/004`. */
  line(label = ''): string {
    const elapsed = (Date.now() - this.started) / 1000;
    const per = this.done > 0 ? elapsed / this.done : NaN;
    const eta = Number.isFinite(per) ? formatDuration(per * (this.total - this.done)) : '…';
    const rate = this.done > 0 ? `${((100 * this.successes) / this.done).toFixed(1)}%` : '–';
    const resumed = this.alreadyDone > 0 ? ` (+${this.alreadyDone} resumed)` : '';
    return `${this.done}/${this.total} episodes${resumed} · ${formatDuration(elapsed)} · ETA ${eta} · success ${rate}${label ? ` · ${label}` : ''}`;
  }

  /** Ends the redrawn line. */
  finish(): void {
    if (this.out.isTTY) this.out.write('\n');
  }
}

/** Seconds → `1h02m`, `3m05s` or `12s`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}
