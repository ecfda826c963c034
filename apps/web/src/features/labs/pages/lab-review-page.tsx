import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { MedicalFile } from '@kinchart/shared/files';
import type { FileLabResults } from '@kinchart/shared/labs';
import { Button, buttonClassName } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { QueryState } from '../../../components/query-state';
import { errorMessage } from '../../../lib/api-client';
import { canWrite } from '../../../lib/person-choice';
import { usePeople } from '../../../lib/queries/people';
import { notify } from '../../../lib/toast';
import { useFiles } from '../../files/api/get-files';
import { recordName } from '../../files/utils/record-list';
import { useAcceptLabResults } from '../api/accept-lab-results';
import { useFileLabResults } from '../api/get-file-lab-results';
import { useFileText } from '../api/get-file-text';
import { PageText } from '../components/page-text';
import { ReviewRowItem, rowFieldId } from '../components/review-row';
import { reviewRowsOf, rowErrors, toAcceptRow, type ReviewField, type ReviewRow } from '../utils/review-rows';

/** The screen's texts in the reader's language. */
function useTexts() {
  const { t } = useLingui();
  return {
    title: t`Lab results`,
    subtitle: (name: string | null) => (name ? t`Found in “${name}”. Check each result before adding it to the health records.` : null),
    back: t`Back to View Records`,
    loading: t`Loading lab results...`,
    loadError: t`The lab results of this report could not be loaded.`,
    pending: t`Reading text…`,
    none: t`We found no lab results in this report`,
    found: (n: number) => t`We found ${plural(n, { one: '# result', other: '# results' })} in this report`,
    intro: t`Leave out what is not a lab result, correct what was misread, and match unmatched names to a test.`,
    readOnly: t`You can see these results; only an editor of this person can add them.`,
    add: (n: number) => t`Add ${plural(n, { one: '# result', other: '# results' })}`,
    adding: t`Adding…`,
    added: (created: number, present: number) =>
      present > 0
        ? t`${plural(created, { one: '# result', other: '# results' })} added (${present} already present)`
        : t`${plural(created, { one: '# result', other: '# results' })} added`,
    addFailed: t`The results could not be added. Please try again.`,
    fixRows: t`Some results need a correction before they can be added.`,
    rowsLabel: t`Results found`,
  };
}

/**
 * /view-records/{fileId}/lab-results (issue 34): the lab results found in a report's text, listed
 * beside the page they came from (on a phone, under them), the row in focus highlighted in the
 * page. An editor corrects, leaves out, maps to a test and adds them; a viewer only reads them.
 */
export function LabReviewPage() {
  const TEXT = useTexts();
  const { fileId = '' } = useParams();
  const files = useFiles();
  const people = usePeople();
  const found = useFileLabResults(fileId);
  const file = files.data?.find((f) => f.id === fileId) ?? null;
  const person = file ? people.data?.find((p) => p.id === file.person_id) : undefined;
  // A record of someone not in the people list is the user's own (as View Records reads it); the server decides anyway.
  const canEdit = people.isSuccess && (person ? canWrite(person) : true);

  return (
    <div>
      <PageHeader
        title={TEXT.title}
        subtitle={TEXT.subtitle(file ? recordName(file) : null)}
        actions={
          <Link to="/view-records" className={buttonClassName('secondary')}>
            {TEXT.back}
          </Link>
        }
      />
      <QueryState query={found} loading={TEXT.loading} error={(error) => errorMessage(error, TEXT.loadError)}>
        {(data) => <FoundResults fileId={fileId} file={file} data={data} canEdit={canEdit} />}
      </QueryState>
    </div>
  );
}

function FoundResults({
  fileId,
  file,
  data,
  canEdit,
}: {
  fileId: string;
  file: MedicalFile | null;
  data: FileLabResults;
  canEdit: boolean;
}) {
  const TEXT = useTexts();
  const heading = data.status === 'pending' ? TEXT.pending : data.results.length === 0 ? TEXT.none : TEXT.found(data.results.length);
  return (
    <>
      {/* Always the same live region: "Reading text…" turns into what was found without a reload. */}
      <div role="status" aria-live="polite" className="mb-4">
        <h2 className="text-xl font-semibold text-slate-900">{heading}</h2>
      </div>
      {data.status === 'done' && data.results.length > 0 ? (
        <ReviewForm fileId={fileId} personId={file?.person_id ?? null} data={data} canEdit={canEdit} />
      ) : null}
    </>
  );
}

function ReviewForm({
  fileId,
  personId,
  data,
  canEdit,
}: {
  fileId: string;
  personId: string | null;
  data: FileLabResults;
  canEdit: boolean;
}) {
  const TEXT = useTexts();
  const navigate = useNavigate();
  const [rows, setRows] = useState<ReviewRow[]>(() => reviewRowsOf(data.results));
  const [activeKey, setActiveKey] = useState<string>(rows[0]?.key ?? '');
  const [editing, setEditing] = useState<ReadonlySet<string>>(new Set());
  const [errors, setErrors] = useState<Record<string, Partial<Record<ReviewField, string>>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formErrorRef = useRef<HTMLParagraphElement>(null);
  const pageRef = useRef<HTMLDivElement>(null);
  const text = useFileText(fileId);
  const accept = useAcceptLabResults(personId);

  const active = rows.find((r) => r.key === activeKey) ?? rows[0];
  const pageNumber = active?.found.page ?? 1;
  const pageText = text.data?.pages.find((p) => p.page === pageNumber)?.text ?? null;
  const included = rows.filter((r) => r.include);

  const change = (key: string, patch: Partial<ReviewRow>) => {
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    // A corrected field loses its message at once; the rest wait for the next try.
    setErrors((current) => {
      if (!current[key]) return current;
      const next = { ...current[key] };
      for (const field of Object.keys(patch)) delete next[field as ReviewField];
      return { ...current, [key]: next };
    });
  };

  const toggleEdit = (key: string) =>
    setEditing((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const showFormError = (message: string) => {
    setFormError(message);
    // After the paragraph is on the page.
    window.setTimeout(() => formErrorRef.current?.focus(), 0);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const found: Record<string, Partial<Record<ReviewField, string>>> = {};
    for (const r of included) {
      const rowFound = rowErrors(r);
      if (Object.keys(rowFound).length > 0) found[r.key] = rowFound;
    }
    setErrors(found);
    const firstKey = Object.keys(found)[0];
    if (firstKey !== undefined) {
      // Open each row that needs a correction and put the cursor in the first field to fix.
      setEditing((current) => new Set([...current, ...Object.keys(found)]));
      setActiveKey(firstKey);
      const field = Object.keys(found[firstKey] ?? {})[0] as ReviewField;
      window.setTimeout(() => document.getElementById(rowFieldId(firstKey, field))?.focus(), 0);
      return;
    }
    try {
      const answer = await accept.mutateAsync({ fileId, results: included.map(toAcceptRow) });
      notify.success(TEXT.added(answer.created, answer.already_present));
      await navigate(personId ? `/health-records/${encodeURIComponent(personId)}?tab=lab-results` : '/health-records?tab=lab-results');
    } catch (error) {
      // A 400 names the field; any other failure gets the general sentence.
      showFormError(errorMessage(error, TEXT.addFailed));
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start"
    >
      <div className="flex min-w-0 flex-col gap-4">
        <p className="text-slate-700">{canEdit ? TEXT.intro : TEXT.readOnly}</p>
        <ul aria-label={TEXT.rowsLabel} className="flex flex-col gap-3">
          {rows.map((row) => (
            <ReviewRowItem
              key={row.key}
              row={row}
              canEdit={canEdit}
              active={row.key === active?.key}
              editing={editing.has(row.key)}
              errors={errors[row.key] ?? {}}
              onChange={(patch) => change(row.key, patch)}
              onToggleEdit={() => toggleEdit(row.key)}
              onFindTest={() => {
                setEditing((current) => new Set([...current, row.key]));
                window.setTimeout(() => document.getElementById(rowFieldId(row.key, 'loinc'))?.focus(), 0);
              }}
              onActivate={() => setActiveKey(row.key)}
              onShowLine={() => {
                setActiveKey(row.key);
                pageRef.current?.scrollIntoView?.({ block: 'nearest' });
              }}
            />
          ))}
        </ul>
        {canEdit ? (
          <div className="sticky bottom-0 z-10 -mx-1 flex flex-col gap-2 bg-slate-50/95 px-1 py-3">
            {Object.keys(errors).some((k) => Object.keys(errors[k] ?? {}).length > 0) ? (
              <p className="font-medium text-red-700">{TEXT.fixRows}</p>
            ) : null}
            {formError ? (
              <p ref={formErrorRef} tabIndex={-1} role="alert" className="rounded-lg bg-red-50 px-3 py-2 font-medium text-red-700">
                {formError}
              </p>
            ) : null}
            <Button type="submit" disabled={included.length === 0 || accept.isPending} className="self-start">
              {accept.isPending ? TEXT.adding : TEXT.add(included.length)}
            </Button>
          </div>
        ) : null}
      </div>
      <div ref={pageRef} className="min-w-0 lg:sticky lg:top-4">
        <PageText page={pageNumber} text={pageText} line={active?.found.line ?? null} loading={text.isPending} />
      </div>
    </form>
  );
}
