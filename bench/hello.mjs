// The baseline: a bare Fastify hello-world, started by the benchmark itself (DESIGN §9).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
process.send?.({ port: app.server.address().port });
