import Fastify from 'fastify';
import fs from 'node:fs';
const spin = Number(process.argv[2]);
const app = Fastify({ logger: false });
const CACHED = Buffer.from(fs.readFileSync('/tmp/proto/profile.json', 'utf8'));
app.get('/p', (request, reply) => {
  const end = performance.now() + spin / 1000; while (performance.now() < end) {}
  reply.type('application/json; charset=utf-8').send(CACHED);
});
await app.listen({ port: 4101, host: '127.0.0.1' });
