// A controller work queue with one worker, as controller-runtime's: a key queued while it waits
// runs once, keys run one at a time in the order they were queued, and an error is kept for the
// test fixture (a write the sandbox's own API server refuses is a sandbox bug).
export class WorkQueue {
  private readonly waiting = new Map<string, () => Promise<void>>();
  private running = false;
  private idle: Promise<void> = Promise.resolve();
  private markIdle = () => {};
  readonly errors: string[] = [];

  add(key: string, job: () => Promise<void>): void {
    this.waiting.set(key, job);
    if (this.running) return;
    this.running = true;
    this.idle = new Promise((r) => (this.markIdle = r));
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    while (this.waiting.size) {
      const [key, job] = this.waiting.entries().next().value!;
      this.waiting.delete(key);
      try {
        await job();
      } catch (err) {
        console.error(`sandbox OLM v1 controller error (${key}): ${(err as Error).message}`);
        if (this.errors.length < 100) this.errors.push((err as Error).message);
      }
    }
    this.running = false;
    this.markIdle();
  }

  /** Resolves once nothing is queued or running. */
  async settled(): Promise<void> {
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
      await this.idle;
    }
  }
}
