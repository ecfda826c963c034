// The bare baseline: a node:http hello-world in a process of its own, started by the benchmark
// (DESIGN §9). It answers what bench/hello.mjs (Fastify) answers, byte for byte, with nothing else.
import http from 'node:http';

const body = JSON.stringify({ hello: 'world' });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => process.send?.({ port: server.address().port }));
