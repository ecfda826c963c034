import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { emergencyResponseSchema, type EmergencyResponse, type PinStatus } from '@kinchart/shared/emergency';
import { escapeHtml } from '../../lib/html';
import { HttpError } from '../../lib/http-errors';
import type { EmergencyService } from './emergency.service';
import { SHARE_ID } from './emergency.routes';

/*
 * DESIGN §7 "Fast on a phone": /emergency/{id} and /family/emergency/{id} are answered with the
 * emergency entry point's own page (apps/web/emergency.html), not the app's. The first HTML already
 * holds the PIN prompt — and an opted-in code's essentials — rendered by the web build's server
 * renderer (apps/web/src/emergency/entry-server.tsx, built into apps/web/dist-ssr), with the page's
 * small stylesheet inlined. Its script then makes that markup live without asking the API again.
 */

type ShareKind = 'self' | 'family';

/** The PIN-less lookup the page's script would make: which route knows the id, and its answer. */
type Lookup = { kind: ShareKind; answer: { body: EmergencyResponse; pinStatus?: PinStatus } } | null;

/** What the server relies on from the web build's renderer (its RenderInput / RenderedPage). */
interface EmergencyRenderer {
  renderEmergencyPage(input: { shareId: string; languages: readonly string[]; lookup: Lookup | undefined }): {
    lang: string;
    /** Issue 35: 'rtl' for Arabic, whose whole page mirrors. */
    dir?: 'ltr' | 'rtl';
    title: string;
    body: string;
  };
}

export interface EmergencyPage {
  render(input: { shareId: string; languages: readonly string[]; lookup: Lookup | undefined }): string;
}

const ROOT_MARK_OPEN = '<!--emergency-page-->';
const ROOT_MARK_CLOSE = '<!--/emergency-page-->';
const TITLE_OPEN = '<title>';
const TITLE_CLOSE = '</title>';
const HTML_LANG = '<html lang="en">';

/** Replaces each `<link rel="stylesheet" … href="/assets/….css">` with the sheet itself, inline. */
function inlineStylesheets(html: string, webRoot: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const start = html.indexOf('<link rel="stylesheet"', from);
    if (start === -1) return out + html.slice(from);
    const end = html.indexOf('>', start);
    const tag = html.slice(start, end + 1);
    const hrefAt = tag.indexOf('href="');
    const href = hrefAt === -1 ? '' : tag.slice(hrefAt + 6, tag.indexOf('"', hrefAt + 6));
    const file = path.resolve(webRoot, `.${href}`);
    if (!href.startsWith('/assets/') || !file.startsWith(webRoot + path.sep))
      throw new Error(`unexpected stylesheet in emergency.html: ${href}`);
    out += `${html.slice(from, start)}<style>${fs.readFileSync(file, 'utf8')}</style>`;
    from = end + 1;
  }
}

function splitOnce(text: string, mark: string): [string, string] {
  const at = text.indexOf(mark);
  if (at === -1) throw new Error(`emergency.html lacks ${mark}`);
  return [text.slice(0, at), text.slice(at + mark.length)];
}

/**
 * Loads the built page and its renderer; `null` when the web app has not been built with them
 * (a development server, API tests): the app's own route then serves the screen, as before.
 */
export async function loadEmergencyPage(webRoot: string | null): Promise<EmergencyPage | null> {
  if (!webRoot) return null;
  const templateFile = path.join(webRoot, 'emergency.html');
  const rendererFile = path.join(webRoot, '..', 'dist-ssr', 'emergency-server.js');
  if (!fs.existsSync(templateFile) || !fs.existsSync(rendererFile)) return null;

  const renderer = (await import(pathToFileURL(rendererFile).href)) as Partial<EmergencyRenderer>;
  if (typeof renderer.renderEmergencyPage !== 'function') throw new Error(`${rendererFile} does not export renderEmergencyPage`);
  const renderPage = renderer.renderEmergencyPage;

  const html = inlineStylesheets(fs.readFileSync(templateFile, 'utf8'), path.resolve(webRoot));
  const [beforeLang, afterLang] = splitOnce(html, HTML_LANG);
  const [beforeTitle, titleAndRest] = splitOnce(afterLang, TITLE_OPEN);
  const [, afterTitle] = splitOnce(titleAndRest, TITLE_CLOSE);
  const [beforeRoot, rootAndRest] = splitOnce(afterTitle, ROOT_MARK_OPEN);
  const [, afterRoot] = splitOnce(rootAndRest, ROOT_MARK_CLOSE);

  return {
    render(input) {
      const page = renderPage(input);
      return `${beforeLang}<html lang="${escapeHtml(page.lang)}"${page.dir === 'rtl' ? ' dir="rtl"' : ''}>${beforeTitle}${TITLE_OPEN}${escapeHtml(page.title)}${TITLE_CLOSE}${beforeRoot}${page.body}${afterRoot}`;
    },
  };
}

/**
 * Accept-Language's tags, most wanted first (RFC 9110 §12.5.4). Bounded: at most 20 tags are
 * read, and nothing here can backtrack.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const tags: { tag: string; q: number; order: number }[] = [];
  for (const part of header.split(',', 20)) {
    const [rawTag = '', ...params] = part.split(';');
    const tag = rawTag.trim();
    if (!tag || tag === '*' || tag.length > 35) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (Number.isFinite(q) && q > 0) tags.push({ tag, q, order: tags.length });
  }
  return tags.sort((a, b) => b.q - a.q || a.order - b.order).map((t) => t.tag);
}

function isNotFound(error: unknown): boolean {
  return error instanceof HttpError && error.statusCode === 404;
}

/** Whether Accept-Encoding takes gzip (a `q=0` refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',', 30).some((part) => {
    const [coding = '', ...params] = part.split(';');
    if (coding.trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * The page, gzipped when the browser takes it: its stylesheet is inline, so the HTML is most of
 * what a phone downloads (the static assets go precompressed).
 */
function sendPage(reply: FastifyReply, html: string, acceptEncoding: string | undefined) {
  void reply
    .header('Cache-Control', 'no-store')
    .header('X-Robots-Tag', 'noindex, nofollow')
    .header('Vary', 'Accept-Encoding')
    .type('text/html; charset=utf-8');
  if (html !== '' && acceptsGzip(acceptEncoding)) return reply.header('Content-Encoding', 'gzip').send(zlib.gzipSync(html));
  return reply.send(html);
}

/**
 * The two public page routes. The lookup is the API's own (`emergency.view` without a PIN, own
 * code first, then a family member's, as SPEC §4 has the page ask), so an opted-in code's
 * essentials are shown, notified and audited exactly once per page load. If the lookup fails for
 * another reason, the page is sent without it and its script asks the API (and says what failed).
 */
export async function emergencyPageRoutes(app: FastifyInstance, opts: { emergency: EmergencyService; page: EmergencyPage }) {
  const lookUp = async (shareId: string, ip: string): Promise<Lookup> => {
    if (!SHARE_ID.test(shareId)) return null;
    for (const kind of ['self', 'family'] as const) {
      try {
        const { body, pinStatus } = await opts.emergency.view(kind, shareId, undefined, ip);
        const encoded = emergencyResponseSchema.encode(body);
        return { kind, answer: { body: encoded, ...(pinStatus ? { pinStatus } : {}) } };
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    return null;
  };

  for (const route of ['/emergency/:shareId', '/family/emergency/:shareId']) {
    app.get<{ Params: { shareId: string } }>(route, { exposeHeadRoute: false }, async (request, reply) => {
      const { shareId } = request.params;
      let lookup: Lookup | undefined;
      try {
        lookup = await lookUp(shareId, request.ip);
      } catch (error) {
        request.log.warn({ err: error }, 'emergency page: lookup failed; the page will ask the API');
        lookup = undefined;
      }
      const html = opts.page.render({ shareId, languages: acceptedLanguages(request.headers['accept-language']), lookup });
      return sendPage(reply, html, request.headers['accept-encoding']);
    });
    // A HEAD (link checkers, previews) gets the page's headers only: no lookup, so no notice.
    app.head(route, async (_request, reply) => sendPage(reply, '', undefined));
  }
}
