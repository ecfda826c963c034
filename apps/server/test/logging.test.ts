import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { lazyChildLoggerFactory } from '../src/plugins/logging';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level }, stream) as unknown as FastifyBaseLogger;
  return { logger, lines };
}

describe('lazyChildLoggerFactory', () => {
  it('makes no child for a request that logs nothing at an enabled level', () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLoggerFactory(logger, { reqId: 'req-1' }, {});
    log.info('incoming request');
    log.debug('details');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('logs through one child bound to the request id once a level is enabled', () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLoggerFactory(logger, { reqId: 'req-2' }, {});
    log.warn({ code: 1 }, 'first');
    log.error('second');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['req-2', 'first'],
      ['req-2', 'second'],
    ]);
    expect(lines[0]?.code).toBe(1);
    expect(log.level).toBe('warn');
  });

  it('gives a route with its own level its child at once', () => {
    const { logger, lines } = capture('warn');
    const log = lazyChildLoggerFactory(logger, { reqId: 'req-3' }, { level: 'debug' });
    log.debug('route detail');
    expect(lines.map((l) => l.msg)).toEqual(['route detail']);
  });
});
