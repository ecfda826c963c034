import { renderToString } from 'react-dom/server';
import { translator, pickLocale } from '../features/emergency/i18n/locales';
import type { EmergencyLookup } from '../features/emergency/api/use-emergency-access';
import { EmergencyRoot } from './emergency-root';
import { PAGE_STATE_ID, type EmergencyPageState } from './page-state';

/*
 * The emergency page's server render (DESIGN §7), bundled with Preact for the Node server
 * (vite.emergency.config.ts, SSR build). The server passes what it already knows — the browser's
 * languages and its own PIN-less lookup — and puts the pieces into the built emergency.html.
 */

export interface RenderInput {
  shareId: string;
  /** Accept-Language's tags, most wanted first. */
  languages: readonly string[];
  /** undefined when the server could not look the code up (the page then asks the API). */
  lookup: EmergencyLookup | undefined;
}

export interface RenderedPage {
  lang: string;
  title: string;
  /** The root element with the rendered page, and the state script, when there is a lookup. */
  body: string;
}

/** JSON that cannot close its `<script>` element or open a comment inside it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

export function renderEmergencyPage({ shareId, languages, lookup }: RenderInput): RenderedPage {
  const locale = pickLocale(languages);
  const title = `${translator(locale)('pageTitle')} · Kinchart`;
  if (lookup === undefined) return { lang: locale, title, body: '<div id="root"></div>' };
  const markup = renderToString(<EmergencyRoot shareId={shareId} initial={lookup} initialLocale={locale} />);
  const state: EmergencyPageState = { locale, lookup };
  return {
    lang: locale,
    title,
    body: `<div id="root">${markup}</div><script type="application/json" id="${PAGE_STATE_ID}">${scriptJson(state)}</script>`,
  };
}
