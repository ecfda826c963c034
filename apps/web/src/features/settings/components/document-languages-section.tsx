import { useId, useState, type FormEvent } from 'react';
import type { Preferences } from '@kinchart/shared/care';
import { DOCUMENT_LANGUAGES, DOCUMENT_LANGUAGES_MAX, type DocumentLanguage } from '@kinchart/shared/search';
import { Button } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/form-controls';
import { StatusMessage } from '../../../components/ui/status-message';
import { errorMessage } from '../../../lib/api-client';
import { useUpdatePreferences } from '../api/preferences';
import { WithPreferences } from './with-preferences';

/**
 * Settings → Account Settings → Documents (issue 33): the languages the account's scans and photos
 * are written in, which the server reads them in (DESIGN §14).
 */
export function DocumentLanguagesSection() {
  return <WithPreferences>{(preferences) => <DocumentLanguagesForm preferences={preferences} />}</WithPreferences>;
}

const englishNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** A language by its own name, and by its English one where that differs ("Deutsch (German)"). */
function LanguageName({ code, label }: { code: DocumentLanguage; label: string }) {
  const english = englishNames.of(code);
  return (
    <>
      <span lang={code}>{label}</span>
      {english && english !== label ? (
        <>
          {' '}
          <span className="text-slate-600">({english})</span>
        </>
      ) : null}
    </>
  );
}

function DocumentLanguagesForm({ preferences }: { preferences: Preferences }) {
  const update = useUpdatePreferences();
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
    if (chosen.length === 0) return setStatus('Choose at least one language.');
    if (chosen.length > DOCUMENT_LANGUAGES_MAX) return setStatus(`Choose at most ${DOCUMENT_LANGUAGES_MAX} languages.`);
    setStatus(null);
    try {
      await update.mutateAsync({ document_languages: chosen });
      setStatus('Document languages saved successfully.');
    } catch (error) {
      setStatus(errorMessage(error, 'Failed to save your document languages', 'Error saving your document languages'));
    }
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)} aria-busy={update.isPending}>
      <fieldset className="flex flex-col" aria-describedby={hintId}>
        <legend className="mb-1 text-sm font-medium text-slate-800">Languages your documents are written in</legend>
        <p id={hintId} className="text-sm text-slate-600">
          Used to read scanned documents and photos. Choose up to {DOCUMENT_LANGUAGES_MAX}.
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
          {update.isPending ? 'Saving...' : 'Save document languages'}
        </Button>
      </div>
      <StatusMessage message={status} />
    </form>
  );
}
