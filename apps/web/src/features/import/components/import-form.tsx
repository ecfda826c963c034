import { useId, useRef, useState, type FormEvent } from 'react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AlreadyPresent, ImportCounts, ImportResult } from '@kinchart/shared/export';
import { IMPORT_ACCEPT } from '@kinchart/shared/export';
import { Button } from '../../../components/ui/button';
import { serverMessage } from '../../../lib/api-client';
import { serverText } from '../../../i18n/server-messages';
import { useImportTargets } from '../api/get-import-targets';
import { useImportData } from '../api/import-data';
import { ImportReport, reportAddedSomething, reportLines } from './import-report';

/** Each kind of record, counted in the reader's language (called when shown: the active language then). */
const COUNT_LABELS: [keyof ImportCounts, (count: number) => string][] = [
  ['family_members', (count) => plural(count, { one: '# family member', other: '# family members' })],
  ['allergies', (count) => plural(count, { one: '# allergy', other: '# allergies' })],
  ['conditions', (count) => plural(count, { one: '# condition', other: '# conditions' })],
  ['emergency_contacts', (count) => plural(count, { one: '# emergency contact', other: '# emergency contacts' })],
  ['healthcare_providers', (count) => plural(count, { one: '# healthcare provider', other: '# healthcare providers' })],
  ['medications', (count) => plural(count, { one: '# medication', other: '# medications' })],
  ['immunizations', (count) => plural(count, { one: '# immunization', other: '# immunizations' })],
  ['lab_results', (count) => plural(count, { one: '# lab result or vital sign', other: '# lab results and vital signs' })],
  ['procedures', (count) => plural(count, { one: '# procedure', other: '# procedures' })],
  ['appointments', (count) => plural(count, { one: '# appointment', other: '# appointments' })],
  ['notifications', (count) => plural(count, { one: '# notification', other: '# notifications' })],
  ['files', (count) => plural(count, { one: '# file', other: '# files' })],
];

/** "3 medications", for each kind of record that came in. */
export function importedLines(counts: ImportCounts): string[] {
  return COUNT_LABELS.filter(([key]) => counts[key] > 0).map(([key, words]) => words(counts[key]));
}

/** The same, for records the account already held and the import did not add again (decision 0012). */
export function presentLines(present: AlreadyPresent): string[] {
  return importedLines({ ...present, allergies: 0 });
}

const isZip = (file: File) => /\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed';

/**
 * Import (decision 0004): a Kinchart export zip restores the account; a FHIR R4 Bundle from another system
 * (a clinic's patient summary, an IPS) adds its records to the own profile or a chosen member.
 * The server checks everything before it changes anything, so a failure leaves the account as it was.
 */
export function ImportForm({ initialFile, onImported }: { initialFile?: File; onImported?: (result: ImportResult) => void }) {
  const { t, i18n } = useLingui();
  const fileId = useId();
  const targetId = useId();
  const hintId = useId();
  const presentId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(initialFile ?? null);
  const [target, setTarget] = useState('self');
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const importData = useImportData();
  const fhir = !!file && !isZip(file);
  const targets = useImportTargets(fhir);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file || importData.isPending) return;
    setError(null);
    setResult(null);
    setProgress(0);
    try {
      const answer = await importData.mutateAsync({ file, target: fhir ? target : 'self', onProgress: setProgress });
      setResult(answer);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
      onImported?.(answer);
    } catch (err) {
      const reason = serverMessage(err);
      setError(reason ? t`Import failed: ${reason}` : t`Import failed: the upload was interrupted. Check the connection and try again.`);
    } finally {
      setProgress(null);
    }
  };

  const percent = progress === null ? '' : i18n.number(Math.floor(progress * 100) / 100, { style: 'percent' });
  const busyLabel = progress === null ? t`Importing...` : t`Uploading... ${percent}`;
  // A FHIR import's report says which allergies and conditions were new; a Kinchart export has no report.
  const added = !result
    ? []
    : result.report.length > 0
      ? [...importedLines({ ...result.imported, allergies: 0, conditions: 0 }), ...reportLines(result.report)]
      : importedLines(result.imported);
  const nothingNew = !!result && added.length === 0 && !reportAddedSomething(result.report);
  const chosenName = file?.name ?? '';

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate>
      <div className="flex flex-col gap-1">
        <label htmlFor={fileId} className="text-sm font-medium text-slate-800">
          <Trans>File to import</Trans>
        </label>
        <input
          ref={inputRef}
          id={fileId}
          type="file"
          accept={IMPORT_ACCEPT}
          aria-describedby={hintId}
          disabled={importData.isPending}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setResult(null);
            setError(null);
          }}
          className="block w-full text-sm text-slate-800 file:me-3 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:font-semibold file:text-slate-800 hover:file:bg-slate-100"
        />
        <p id={hintId} className="text-sm text-slate-700">
          <Trans>
            A Kinchart export (.zip), a FHIR R4 Bundle (.json) such as a patient summary from a clinic, or a C-CDA document (.xml) such as a
            hospital portal’s “Download my record” file.
          </Trans>
        </p>
        {initialFile && file === initialFile ? (
          <p className="text-sm font-medium text-slate-800">
            <Trans>Chosen: {chosenName}</Trans>
          </p>
        ) : null}
      </div>

      {file && isZip(file) ? (
        <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <Trans>
            Restoring an export replaces your own profile with the one in the export, and adds its family members, appointments,
            notifications and files to your account.
          </Trans>
        </p>
      ) : null}

      {fhir ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={targetId} className="text-sm font-medium text-slate-800">
            <Trans>Import into</Trans>
          </label>
          <select
            id={targetId}
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            disabled={importData.isPending}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900"
          >
            {(targets.data ?? [{ id: 'self', label: t`My Profile` }]).map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}

      <div>
        <Button type="submit" disabled={!file || importData.isPending} className="tabular-nums">
          {importData.isPending ? busyLabel : t`Import`}
        </Button>
      </div>

      <div aria-live="polite">
        {result ? (
          <div className="rounded-lg bg-green-50 px-4 py-3 text-sm text-green-900">
            <p className="font-semibold">{serverText(result) ?? result.message}</p>
            {added.length > 0 ? (
              <ul className="mt-1 list-disc ps-5">
                {added.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : nothingNew ? (
              <p className="mt-1">
                <Trans>Nothing new: everything in the file was already here.</Trans>
              </p>
            ) : null}
            {presentLines(result.already_present).length > 0 ? (
              <>
                <p id={presentId} className="mt-2 font-semibold">
                  <Trans>Already here, not added again</Trans>
                </p>
                <ul aria-labelledby={presentId} className="list-disc ps-5">
                  {presentLines(result.already_present).map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </>
            ) : null}
            {/* A FHIR import's report below says the same, per resource type. */}
            {result.report.length === 0 && result.skipped.length > 0 ? (
              <>
                <p className="mt-2 font-semibold">
                  <Trans>Left out</Trans>
                </p>
                <ul className="list-disc ps-5">
                  {result.skipped.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </>
            ) : null}
          </div>
        ) : null}
      </div>
      {/* Outside the live region: a screen reader hears the summary, and reads the table when it chooses to. */}
      {result && result.report.length > 0 ? <ImportReport report={result.report} /> : null}
      {error ? (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </form>
  );
}
