import { useId, useRef, useState, type FormEvent } from 'react';
import type { AlreadyPresent, ImportCounts, ImportResult } from '@kinchart/shared/export';
import { IMPORT_ACCEPT } from '@kinchart/shared/export';
import { Button } from '../../../components/ui/button';
import { serverMessage } from '../../../lib/api-client';
import { useImportTargets } from '../api/get-import-targets';
import { useImportData } from '../api/import-data';
import { ImportReport, reportAddedSomething, reportLines } from './import-report';

const COUNT_LABELS: [keyof ImportCounts, string, string][] = [
  ['family_members', 'family member', 'family members'],
  ['allergies', 'allergy', 'allergies'],
  ['conditions', 'condition', 'conditions'],
  ['emergency_contacts', 'emergency contact', 'emergency contacts'],
  ['healthcare_providers', 'healthcare provider', 'healthcare providers'],
  ['medications', 'medication', 'medications'],
  ['immunizations', 'immunization', 'immunizations'],
  ['lab_results', 'lab result or vital sign', 'lab results and vital signs'],
  ['procedures', 'procedure', 'procedures'],
  ['appointments', 'appointment', 'appointments'],
  ['notifications', 'notification', 'notifications'],
  ['files', 'file', 'files'],
];

/** "3 medications", for each kind of record that came in. */
export function importedLines(counts: ImportCounts): string[] {
  return COUNT_LABELS.filter(([key]) => counts[key] > 0).map(([key, one, many]) => `${counts[key]} ${counts[key] === 1 ? one : many}`);
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
      setError(`Import failed: ${serverMessage(err) ?? 'the upload was interrupted. Check the connection and try again.'}`);
    } finally {
      setProgress(null);
    }
  };

  const busyLabel = progress === null ? 'Importing...' : `Uploading... ${Math.floor(progress * 100)}%`;
  // A FHIR import's report says which allergies and conditions were new; a Kinchart export has no report.
  const added = !result
    ? []
    : result.report.length > 0
      ? [...importedLines({ ...result.imported, allergies: 0, conditions: 0 }), ...reportLines(result.report)]
      : importedLines(result.imported);
  const nothingNew = !!result && added.length === 0 && !reportAddedSomething(result.report);

  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate>
      <div className="flex flex-col gap-1">
        <label htmlFor={fileId} className="text-sm font-medium text-slate-800">
          File to import
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
          A Kinchart export (.zip), a FHIR R4 Bundle (.json) such as a patient summary from a clinic, or a C-CDA document (.xml) such as a
          hospital portal&apos;s &ldquo;Download my record&rdquo; file.
        </p>
        {initialFile && file === initialFile ? <p className="text-sm font-medium text-slate-800">Chosen: {file.name}</p> : null}
      </div>

      {file && isZip(file) ? (
        <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          Restoring an export replaces your own profile with the one in the export, and adds its family members, appointments, notifications
          and files to your account.
        </p>
      ) : null}

      {fhir ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={targetId} className="text-sm font-medium text-slate-800">
            Import into
          </label>
          <select
            id={targetId}
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            disabled={importData.isPending}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900"
          >
            {(targets.data ?? [{ id: 'self', label: 'My Profile' }]).map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}

      <div>
        <Button type="submit" disabled={!file || importData.isPending} className="tabular-nums">
          {importData.isPending ? busyLabel : 'Import'}
        </Button>
      </div>

      <div aria-live="polite">
        {result ? (
          <div className="rounded-lg bg-green-50 px-4 py-3 text-sm text-green-900">
            <p className="font-semibold">{result.message}</p>
            {added.length > 0 ? (
              <ul className="mt-1 list-disc ps-5">
                {added.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : nothingNew ? (
              <p className="mt-1">Nothing new: everything in the file was already here.</p>
            ) : null}
            {presentLines(result.already_present).length > 0 ? (
              <>
                <p id={presentId} className="mt-2 font-semibold">
                  Already here, not added again
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
                <p className="mt-2 font-semibold">Left out</p>
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
