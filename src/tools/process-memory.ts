/**
 * Memory of the browser a CLI tool launched: the proportional set size (PSS, Linux
 * `/proc/PID/smaps_rollup`; VmRSS where that is unreadable) summed over every descendant process
 * of this Node process (Chromium's browser, GPU and renderer processes), sampled on a timer so that
 * the peak during a load or a run of frames is caught. PSS splits shared pages between the
 * processes that map them, so the sum does not count shared libraries once per process.
 * Linux only: elsewhere the sampler reports null.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** kB → bytes of the first `Name: N kB` line of a /proc file, or null. */
function procField(path: string, name: string): number | null {
  try {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(readFileSync(path, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** PIDs of every descendant of `root` (not `root` itself), from /proc/PID/stat's parent field. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name in parentheses (which may hold spaces): state, ppid, …
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process exited while we listed it.
    }
  }
  const out: number[] = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Bytes of PSS (or RSS) of all descendants of this process now; null when /proc is unavailable. */
export function childTreeMemoryBytes(): number | null {
  let pids: number[];
  try {
    pids = descendants(process.pid);
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of pids) total += procField(`/proc/${pid}/smaps_rollup`, 'Pss') ?? procField(`/proc/${pid}/status`, 'VmRSS') ?? 0;
  return total;
}

/** Samples {@link childTreeMemoryBytes} every `intervalMs` and keeps the peak. */
export class PeakMemorySampler {
  private peakBytes: number | null = null;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(intervalMs = 250) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** Takes one sample now (also call it right after the work being measured). */
  sample(): void {
    const bytes = childTreeMemoryBytes();
    if (bytes !== null) this.peakBytes = Math.max(this.peakBytes ?? 0, bytes);
  }

  /** The largest sample so far, bytes; null on systems without /proc. */
  get peak(): number | null {
    return this.peakBytes;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
