import { hydrateRoot, createRoot } from 'react-dom/client';
import { isLocale, loadEmergencyMessages, pickLocale } from '../features/emergency/i18n/locales';
import { browserLanguages } from '../features/emergency/i18n/use-emergency-i18n';
import { EmergencyRoot } from './emergency-root';
import { PAGE_STATE_ID, shareIdOfPath, type EmergencyPageState } from './page-state';
import './emergency.css';

/*
 * The emergency entry point's script (DESIGN §7). Built with Preact in place of React
 * (vite.emergency.config.ts) so the page's whole transfer stays small on a phone. The server has
 * already rendered the first screen; this makes it live. Without the server's state (a dev
 * server, or the server could not render) it renders from scratch and asks the API itself.
 */
function readState(): EmergencyPageState | null {
  const text = document.getElementById(PAGE_STATE_ID)?.textContent;
  if (!text) return null;
  try {
    const state = JSON.parse(text) as EmergencyPageState;
    return isLocale(state.locale) ? state : null;
  } catch {
    return null;
  }
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');
const shareId = shareIdOfPath(window.location.pathname);
const state = readState();

// Only the shown language's catalog is fetched, before the page goes live (the server's markup
// stays on screen meanwhile), so hydration finds the same words.
const locale = state?.locale ?? pickLocale(browserLanguages());
void loadEmergencyMessages(locale).then((messages) => {
  const initialCatalog = { locale, messages };
  if (state) hydrateRoot(container, <EmergencyRoot shareId={shareId} initial={state.lookup} initialCatalog={initialCatalog} />);
  else createRoot(container).render(<EmergencyRoot shareId={shareId} initialCatalog={initialCatalog} />);
});
