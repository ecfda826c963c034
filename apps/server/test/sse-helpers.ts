import http from 'node:http';

export interface SseEvent {
  event: string;
  data: string;
}

export interface EventStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body so far, for streams answered with an error. */
  body(): string;
  events: SseEvent[];
  /** Resolves with the first event (already received or still to come) that `match` accepts. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `url` over a real HTTP connection and parses what arrives as server-sent events. */
export function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const events: SseEvent[] = [];
      const waiters = new Set<() => void>();
      let raw = '';
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (data.length) events.push({ event, data: data.join('\n') });
        }
        for (const wake of [...waiters]) wake();
      });
      const ended = new Promise<void>((done) => {
        res.on('end', () => done());
        res.on('close', () => done());
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: () => raw,
        events,
        ended,
        close: () => req.destroy(),
        waitFor(match, timeoutMs = 10_000) {
          return new Promise((found, fail) => {
            const check = () => {
              const hit = events.find(match);
              if (!hit) return false;
              waiters.delete(check);
              clearTimeout(timer);
              found(hit);
              return true;
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
            }, timeoutMs);
            if (!check()) waiters.add(check);
          });
        },
      });
    });
    req.on('error', reject);
  });
}
