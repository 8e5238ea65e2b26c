/**
 * One queue for every `session.run()`: onnxruntime-web must never run two sessions at once on one
 * device (product brief, "Policy contract (ONNX)": the WebGPU EP shares command encoders and buffer
 * pools per device, and the wasm backend is single-threaded), so runs are chained on one promise.
 */

/** Runs async jobs one at a time, in call order; a failed job does not stop later ones. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private running = 0;
  /** Largest number of jobs seen running at once (1 unless the queue is broken); for tests. */
  maxConcurrent = 0;

  /** Enqueues `job`; resolves or rejects with its result once every earlier job has settled. */
  run<T>(job: () => Promise<T>): Promise<T> {
    const start = async (): Promise<T> => {
      this.running++;
      this.maxConcurrent = Math.max(this.maxConcurrent, this.running);
      try {
        return await job();
      } finally {
        this.running--;
      }
    };
    const result = this.tail.then(start, start);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** The process-wide queue every onnxruntime session run in Curbside goes through. */
export const ORT_RUN_QUEUE = new SerialQueue();
