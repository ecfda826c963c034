import { renderToString } from 'react-dom/server';
import type { Messages } from '@lingui/core';
import { directionOf, emergencyI18n, pickLocale, translator, type Locale } from '../features/emergency/i18n/locales';
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
  /** `dir` for `<html>`: rtl for Arabic (the rendered markup carries it too). */
  dir: 'ltr' | 'rtl';
  title: string;
  /** The root element with the rendered page, and the state script, when there is a lookup. */
  body: string;
}

/*
 * Every language's emergency catalog, bundled into the renderer: the server answers any
 * Accept-Language at once. The browser then loads only the catalog of the language it was given.
 */
const catalogFiles = import.meta.glob<{ messages: Messages }>('../locales/*/emergency.po', { eager: true });

function messagesOf(locale: Locale): Messages {
  return (catalogFiles[`../locales/${locale}/emergency.po`] ?? catalogFiles['../locales/en/emergency.po'])?.messages ?? {};
}

/** What follows the page's name in the document title: the product's name, never translated. */
const TITLE_SUFFIX = ' · Kinchart';
const EMPTY_ROOT = '<div id="root"></div>';
const ROOT_OPEN = '<div id="root">';
const STATE_OPEN = `</div><script type="application/json" id="${PAGE_STATE_ID}">`;
const STATE_CLOSE = '</script>';

/** JSON that cannot close its `<script>` element or open a comment inside it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

export function renderEmergencyPage({ shareId, languages, lookup }: RenderInput): RenderedPage {
  const locale = pickLocale(languages);
  const messages = messagesOf(locale);
  const dir = directionOf(locale);
  const title = translator(emergencyI18n(locale, messages))('pageTitle') + TITLE_SUFFIX;
  if (lookup === undefined) return { lang: locale, dir, title, body: EMPTY_ROOT };
  const markup = renderToString(<EmergencyRoot shareId={shareId} initial={lookup} initialCatalog={{ locale, messages }} />);
  const state: EmergencyPageState = { locale, lookup };
  return {
    lang: locale,
    dir,
    title,
    body: ROOT_OPEN + markup + STATE_OPEN + scriptJson(state) + STATE_CLOSE,
  };
}
