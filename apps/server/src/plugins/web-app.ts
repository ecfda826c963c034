import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { withCode } from './errors';
import fastifyStatic from '@fastify/static';

/** Files of the web build whose names do not change between builds (see serveWebApp). */
const NEVER_STALE = new Set(['sw.js', 'push-sw.js', 'manifest.webmanifest']);

/**
 * Serves the built web app (DESIGN §1: one origin): its files, and index.html for every client
 * route; anything else unknown is the API's 404.
 */
export async function serveWebApp(app: FastifyInstance, webRoot: string | null): Promise<void> {
  const indexFile = webRoot ? path.join(webRoot, 'index.html') : null;
  const hasWeb = !!indexFile && fs.existsSync(indexFile);
  if (hasWeb && webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz copies of its text files (apps/web/scripts/precompress.mjs):
      // send the one the browser accepts, the file itself otherwise (DESIGN §9, first load on slow 4G).
      preCompressed: true,
      // Vite fingerprints assets: cache them for a year; index.html is never cached. The service
      // worker and the web app manifest keep their names from build to build, so the browser asks
      // again every time (a stale sw.js would hold a device on an old build).
      setHeaders: (reply, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) void reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        else if (NEVER_STALE.has(path.relative(webRoot, filePath))) void reply.header('Cache-Control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // A missing asset (/assets/x.js, /logo.png) is a 404, not the app's HTML: a browser would
    // otherwise try to run HTML as a script. Client routes have no file extension.
    const isAsset = pathname.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(pathname.split('/').pop() ?? '');
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/') && !isAsset;
    if (isPage && hasWeb) {
      // Client-side routes (/dashboard, /emergency/{id}, …) all start from index.html. It names
      // the current build's assets, so it is revalidated every time: without cacheControl: false,
      // send would replace this header with its own `public, max-age=0`.
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html', { cacheControl: false });
    }
    return reply.code(404).send(withCode({ message: 'Not found' }));
  });
}
