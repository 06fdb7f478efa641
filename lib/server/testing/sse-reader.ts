// Reads a text/event-stream body into events, as EventSource would, for route tests.
export interface SseEvent {
  event: string;
  id?: string;
  data?: {
    watch?: string;
    type?: string;
    items?: { metadata?: { name?: string } }[];
    object?: { metadata?: { name?: string } };
    state?: string;
    code?: number;
    reason?: string;
    message?: string;
  };
  comment?: string;
}

export function sseReader(res: Response) {
  const r = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: SseEvent[] = [];
  // A read that loses the race against the poll below is kept for the next turn: dropping it
  // would drop whatever it brings.
  let reading: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  return {
    async next(pred: (e: SseEvent) => boolean, timeoutMs = 10_000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = queue.findIndex(pred);
        if (i >= 0) return queue.splice(i, 1)[0]!;
        if (Date.now() > deadline)
          throw new Error(`no matching event in ${timeoutMs} ms; saw ${JSON.stringify(queue.map((q) => q.event))}`);
        reading ??= r.read();
        const idle = { value: undefined, done: false } as const;
        const poll = new Promise<typeof idle>((res) => setTimeout(() => res(idle), 200));
        const { value, done } = await Promise.race([reading, poll]);
        if (value || done) reading = undefined;
        if (done) throw new Error('stream ended');
        if (!value) continue;
        buffer += decoder.decode(value, { stream: true });
        let sep: number;
        while ((sep = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, sep);
          buffer = buffer.slice(sep + 2);
          const ev: SseEvent = { event: 'message' };
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) ev.comment = line.slice(1).trim();
            else if (line.startsWith('event: ')) ev.event = line.slice(7);
            else if (line.startsWith('id: ')) ev.id = line.slice(4);
            else if (line.startsWith('data: ')) ev.data = JSON.parse(line.slice(6)) as SseEvent['data'];
          }
          if (ev.comment !== undefined && ev.event === 'message') ev.event = 'comment';
          queue.push(ev);
        }
      }
    },
    cancel: () => r.cancel(),
  };
}
