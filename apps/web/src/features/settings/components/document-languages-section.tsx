import { useId, useState, type FormEvent } from 'react';
import type { Preferences } from '@kinchart/shared/care';
import { Trans, useLingui } from '@lingui/react/macro';
import { DOCUMENT_LANGUAGES, DOCUMENT_LANGUAGES_MAX, type DocumentLanguage } from '@kinchart/shared/search';
import { Button } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/form-controls';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { intlLocale, isAppLanguage } from '../../../i18n/languages';
import { useUpdatePreferences } from '../api/preferences';
import { WithPreferences } from './with-preferences';

/**
 * Settings → Account Settings → Documents (issue 33): the languages the account's scans and photos
 * are written in, which the server reads them in (DESIGN §14).
 */
export function DocumentLanguagesSection() {
  return <WithPreferences>{(preferences) => <DocumentLanguagesForm preferences={preferences} />}</WithPreferences>;
}

/** The reader's names of languages ("German" in English, "alemán" in Spanish), one formatter per language. */
const displayNames = new Map<string, Intl.DisplayNames>();
function namesIn(locale: string): Intl.DisplayNames {
  let names = displayNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale, 'en'], { type: 'language' });
    displayNames.set(locale, names);
  }
  return names;
}

/** A language by its own name, and by the reader's one where that differs ("Deutsch (German)"). */
function LanguageName({ code, label }: { code: DocumentLanguage; label: string }) {
  const { i18n } = useLingui();
  const readerName = namesIn(isAppLanguage(i18n.locale) ? intlLocale(i18n.locale) : 'en').of(code);
  return (
    <>
      <span lang={code}>{label}</span>
      {readerName && readerName !== label ? (
        <>
          {' '}
          <span className="text-slate-600">({readerName})</span>
        </>
      ) : null}
    </>
  );
}

function DocumentLanguagesForm({ preferences }: { preferences: Preferences }) {
  const { t } = useLingui();
  const update = useUpdatePreferences();
  const max = DOCUMENT_LANGUAGES_MAX;
  // In the order chosen: the first is the one the reader tries first.
  const [chosen, setChosen] = useState<DocumentLanguage[]>(preferences.document_languages);
  const [status, setStatus] = useState<string | null>(null);
  const hintId = useId();

  const toggle = (code: DocumentLanguage, on: boolean) => {
    setStatus(null);
    setChosen((list) => (on ? [...list.filter((c) => c !== code), code] : list.filter((c) => c !== code)));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0) return setStatus(t`Choose at least one language.`);
    if (chosen.length > max) return setStatus(t`Choose at most ${max} languages.`);
    setStatus(null);
    try {
      await update.mutateAsync({ document_languages: chosen });
      setStatus(t`Document languages saved successfully.`);
    } catch (error) {
      setStatus(errorMessage(error, t`Failed to save your document languages`, t`Error saving your document languages`));
    }
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)} aria-busy={update.isPending}>
      <fieldset className="flex flex-col" aria-describedby={hintId}>
        <legend className="mb-1 text-sm font-medium text-slate-800">
          <Trans>Languages your documents are written in</Trans>
        </legend>
        <p id={hintId} className="text-sm text-slate-600">
          <Trans>Used to read scanned documents and photos. Choose up to {max}.</Trans>
        </p>
        <div className="grid grid-cols-1 gap-x-6 sm:grid-cols-2 lg:grid-cols-3">
          {DOCUMENT_LANGUAGES.map((language) => (
            <CheckboxField
              key={language.code}
              label={<LanguageName code={language.code} label={language.label} />}
              checked={chosen.includes(language.code)}
              disabled={update.isPending}
              onChange={(event) => toggle(language.code, event.target.checked)}
            />
          ))}
        </div>
      </fieldset>
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t`Saving...` : t`Save document languages`}
        </Button>
      </div>
      <StatusMessage message={status} />
    </form>
  );
}
