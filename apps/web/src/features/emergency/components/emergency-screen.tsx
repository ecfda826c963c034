import { useEffect } from 'react';
import { DocumentTitle } from '../../../components/ui/page-header';
import { useEmergencyAccess, type EmergencyLookup } from '../api/use-emergency-access';
import { CriticalSummary, factsFromEssentials } from './critical-summary';
import { DownloadFhirButton } from './download-fhir-button';
import { EmergencyInfoView } from './emergency-info-view';
import { EmergencyPinForm } from './emergency-pin-form';
import { PinBlockNotice } from './pin-block-notice';
import { directionOf } from '../i18n/locales';
import { EmergencyI18nProvider, LanguageSwitcher, useEmergencyI18n, type EmergencyCatalog } from '../i18n/use-emergency-i18n';

function PageHeading() {
  const { t } = useEmergencyI18n();
  return <h1 className="text-3xl font-extrabold text-black">{t('pageTitle')}</h1>;
}

function SwitcherRow() {
  return (
    <div className="mb-4 flex justify-end">
      <LanguageSwitcher />
    </div>
  );
}

export interface EmergencyScreenProps {
  shareId: string;
  /** The server's PIN-less lookup, when it rendered the first HTML (see emergency/entry-server). */
  initial?: EmergencyLookup;
  /** The language the server rendered in, with its catalog, so hydration shows the same words. */
  initialCatalog?: EmergencyCatalog;
  /**
   * Rendered by the emergency entry point, whose HTML head the server writes: the title is set
   * on the document directly (Preact does not hoist `<title>` and `<meta>` as React 19 does).
   */
  standalone?: boolean;
}

/** What follows the page's name in the document title: the product's name, never translated. */
const TITLE_SUFFIX = ' · Kinchart';

/** Keeps the document's title in the viewer's language on the standalone page. */
function StandaloneTitle({ title }: { title: string }) {
  useEffect(() => {
    document.title = title + TITLE_SUFFIX;
  }, [title]);
  return null;
}

function EmergencyPageContent({ shareId, initial, standalone }: Omit<EmergencyScreenProps, 'initialCatalog'>) {
  const { t, locale } = useEmergencyI18n();
  const { state, submitPin, retry } = useEmergencyAccess(shareId, initial);

  let content;
  switch (state.step) {
    case 'loading':
      content = (
        <>
          <SwitcherRow />
          <PageHeading />
          <p role="status" className="mt-6 text-xl text-black">
            {t('loading')}
          </p>
        </>
      );
      break;
    case 'not-found':
      content = (
        <>
          <SwitcherRow />
          <PageHeading />
          <div role="alert" className="mt-6 rounded-2xl border-4 border-red-800 bg-red-50 p-5 sm:p-6">
            <p className="text-2xl font-extrabold text-red-900">{t('notFound')}</p>
            <p className="mt-2 text-lg text-black">{t('notFoundHint')}</p>
          </div>
        </>
      );
      break;
    case 'unavailable':
      content = (
        <>
          <SwitcherRow />
          <PageHeading />
          <div role="alert" className="mt-6 rounded-2xl border-4 border-red-800 bg-red-50 p-5 sm:p-6">
            {/* The server's own words are English; other languages get the page's. */}
            <p className="text-xl font-bold text-red-900">{(locale === 'en' && state.message) || t('unreachable')}</p>
          </div>
          <button
            type="button"
            onClick={retry}
            className="mt-5 min-h-14 rounded-xl bg-black px-6 py-3 text-xl font-bold text-white hover:bg-slate-800"
          >
            {t('tryAgain')}
          </button>
        </>
      );
      break;
    case 'pin':
      content = (
        <div className="flex flex-col gap-5">
          {state.essentials ? (
            <div className="rounded-2xl border-2 border-slate-800 bg-white p-3 sm:p-4">
              <CriticalSummary
                facts={factsFromEssentials(state.essentials, locale, t)}
                isPet={state.essentials.is_pet}
                heading={
                  <div className="flex items-center justify-between gap-2">
                    <h2 className="min-w-0 text-base font-bold tracking-wide text-red-900 uppercase">{t('essentialsTitle')}</h2>
                    <LanguageSwitcher />
                  </div>
                }
              />
              <p className="mt-2 text-base text-slate-800">{t('essentialsNote')}</p>
            </div>
          ) : (
            <SwitcherRow />
          )}
          {state.block ? <PinBlockNotice block={state.block} onRetry={retry} /> : null}
          {state.block ? null : (
            <EmergencyPinForm
              submitting={state.submitting}
              problem={state.problem}
              afterEssentials={Boolean(state.essentials)}
              onSubmit={(pin) => void submitPin(pin)}
            />
          )}
        </div>
      );
      break;
    case 'info':
      content = (
        <>
          <EmergencyInfoView info={state.info} aside={<LanguageSwitcher />} />
          {/* After a successful PIN, the same information as a FHIR file for clinicians. */}
          {state.access ? <DownloadFhirButton shareId={shareId} kind={state.access.kind} pin={state.access.pin} /> : null}
        </>
      );
      break;
  }

  // `dir` here as well as on <html>: the server's first HTML is already mirrored for Arabic.
  return (
    <div lang={locale} dir={directionOf(locale)} className="text-black">
      {standalone ? (
        <StandaloneTitle title={t('pageTitle')} />
      ) : (
        <>
          <DocumentTitle title={t('pageTitle')} />
          {/* Health data behind a secret link: keep it out of search engines and other sites' logs. */}
          <meta name="robots" content="noindex, nofollow" />
          <meta name="referrer" content="no-referrer" />
        </>
      )}
      {content}
    </div>
  );
}

/**
 * /emergency/:shareId and /family/emergency/:shareId (SPEC §2, §4; DESIGN §7). Public: no
 * session, no header or footer, and the share id is never shown. Kept small — no query library
 * state, no date library, only the Lingui core with the page's own small catalog — so it loads fast on a phone with a weak signal; its texts are
 * in the responder's language. Opened from a QR code it is served by its own entry point
 * (src/emergency), server-rendered; within the app the router shows the same screen.
 */
export function EmergencyScreen({ initialCatalog, ...props }: EmergencyScreenProps) {
  return (
    <EmergencyI18nProvider initial={initialCatalog}>
      <EmergencyPageContent {...props} />
    </EmergencyI18nProvider>
  );
}
