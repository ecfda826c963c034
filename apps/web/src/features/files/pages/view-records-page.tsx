import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { MedicalFile } from '@kinchart/shared/files';
import type { SearchResult } from '@kinchart/shared/search';
import { HighlightedSnippet } from '../../search/components/highlighted-snippet';
import { QueryState } from '../../../components/query-state';
import { Button, buttonClassName } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { inputClassName } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { PersonSelect } from '../../../components/ui/person-select';
import { canWrite, personNameOf } from '../../../lib/person-choice';
import { usePeople } from '../../../lib/queries/people';
import { useAppEvent } from '../../../lib/events';
import { notify } from '../../../lib/toast';
import { useDeleteFile } from '../api/delete-file';
import { filesQueryKey, useFiles } from '../api/get-files';
import { useFileContentSearch } from '../api/search-file-contents';
import { RecordCard } from '../components/record-card';
import { UploadRecordModal } from '../components/upload-record-modal';
import { ViewFilesModal } from '../components/view-files-modal';
import {
  DEFAULT_RECORD_QUERY,
  SORT_OPTIONS,
  TYPE_FILTER_OPTIONS,
  recordName,
  selectRecords,
  type SortOrder,
  type TypeFilter,
} from '../utils/record-list';

/** SPEC §8: said once per failed fetch, in the language of that moment. */
const FETCH_FAILED = msg`Error fetching files`;

/**
 * /view-records — SPEC §2 View Records: search, type filter, sort, and a grid of record cards;
 * and a person filter (DESIGN §11), Everyone by default, kept in the address (?person={id}) so a
 * reload or Back keeps it.
 */
export function ViewRecordsPage() {
  const { t } = useLingui();
  const ids = useId();
  const queryClient = useQueryClient();
  const people = usePeople();
  const [searchParams, setSearchParams] = useSearchParams();
  const personId = searchParams.get('person') || '';
  const setPersonId = (id: string) => setSearchParams(id ? { person: id } : {}, { replace: true });
  const files = useFiles(personId || undefined);
  const deleteFile = useDeleteFile();
  const [search, setSearch] = useState(DEFAULT_RECORD_QUERY.search);
  const [type, setType] = useState<TypeFilter>(DEFAULT_RECORD_QUERY.type);
  const [sort, setSort] = useState<SortOrder>(DEFAULT_RECORD_QUERY.sort);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [viewFilesOpen, setViewFilesOpen] = useState(false);
  const [pendingDelete, setPendingDelete] = useState<MedicalFile | null>(null);
  const [deletedMessage, setDeletedMessage] = useState('');

  // SPEC §4 Refresh events: another part of the page (the navigation bar's upload) says the files changed.
  useAppEvent('filesUpdated', () => {
    void queryClient.invalidateQueries({ queryKey: filesQueryKey }, { cancelRefetch: false });
  });

  // SPEC §8: 'Error fetching files', once per failed fetch.
  useEffect(() => {
    if (files.isError) notify.error(i18n._(FETCH_FAILED));
  }, [files.isError, files.errorUpdatedAt]);

  const all = files.data;
  // Issue 33: files whose text matches are added to SPEC §2's own search, each with its matching line.
  const contentSearch = useFileContentSearch(search, personId || undefined);
  const inside = useMemo(() => {
    const byFile = new Map<string, SearchResult>();
    for (const result of contentSearch) if (result.kind === 'file' && result.page !== undefined) byFile.set(result.id, result);
    return byFile;
  }, [contentSearch]);
  const shown = useMemo(() => selectRecords(all ?? [], { search, type, sort }, new Set(inside.keys())), [all, search, type, sort, inside]);

  const confirmDelete = async () => {
    if (!pendingDelete) return;
    try {
      await deleteFile.mutateAsync(pendingDelete);
      setPendingDelete(null);
      setDeletedMessage(t`Record deleted.`);
      // The card that held focus is gone; carry on from the search box rather than from <body>.
      window.setTimeout(() => document.getElementById(`${ids}-search`)?.focus(), 0);
    } catch (error) {
      console.error('Error deleting file:', error);
      setPendingDelete(null);
      window.alert(t`Failed to delete file. Please try again.`);
    }
  };

  const filtered = search.trim() !== '' || type !== 'all';
  // A viewer of a shared person reads their records but does not rename or delete them; a record
  // of someone not (or not yet) in the list is the user's own.
  const canEditFile = (filePersonId: string | null | undefined) => {
    const person = filePersonId ? people.data?.find((p) => p.id === filePersonId) : undefined;
    return person ? canWrite(person) : true;
  };
  const peopleList = people.data ?? [];
  // With only yourself there is nobody to filter by, and no name worth repeating on every card.
  const manyPeople = peopleList.length > 1;
  const filteredPerson = personId ? peopleList.find((p) => p.id === personId) : undefined;
  const filteredName = filteredPerson ? personNameOf(peopleList, filteredPerson.id) : '';
  const pendingName = pendingDelete ? recordName(pendingDelete) : '';
  const shownCount = shown.length;
  const total = all?.length ?? 0;

  return (
    <div>
      <PageHeader
        title={t`View Records`}
        subtitle={t`Search, sort, rename and open your medical records.`}
        actions={
          <>
            <Button onClick={() => setUploadOpen(true)}>
              <Trans>Upload</Trans>
            </Button>
            <Button variant="secondary" onClick={() => setViewFilesOpen(true)}>
              <Trans>View Files</Trans>
            </Button>
          </>
        }
      />

      <div
        role="search"
        aria-label={t`Find records`}
        className={`mb-4 grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3 sm:items-end ${
          manyPeople ? 'sm:grid-cols-[1fr_minmax(0,14rem)_auto_auto]' : 'sm:grid-cols-[1fr_auto_auto]'
        }`}
      >
        <div className="col-span-2 flex flex-col gap-1 sm:col-span-1">
          <label htmlFor={`${ids}-search`} className="text-sm font-medium text-slate-800">
            <Trans>Search</Trans>
          </label>
          <input
            id={`${ids}-search`}
            type="search"
            placeholder={t`Search files...`}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className={`${inputClassName} min-h-11`}
          />
        </div>
        {manyPeople ? (
          <PersonSelect
            label={t`Person`}
            people={peopleList}
            value={personId}
            onChange={setPersonId}
            everyoneLabel={t`Everyone`}
            containerClassName="col-span-2 sm:col-span-1"
          />
        ) : null}
        <div className="flex flex-col gap-1">
          <label htmlFor={`${ids}-type`} className="text-sm font-medium text-slate-800">
            <Trans>Type</Trans>
          </label>
          <select
            id={`${ids}-type`}
            value={type}
            onChange={(event) => setType(event.target.value as TypeFilter)}
            className={`${inputClassName} min-h-11`}
          >
            {TYPE_FILTER_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {t(option.label)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${ids}-sort`} className="text-sm font-medium text-slate-800">
            <Trans>Sort by</Trans>
          </label>
          <select
            id={`${ids}-sort`}
            value={sort}
            onChange={(event) => setSort(event.target.value as SortOrder)}
            className={`${inputClassName} min-h-11`}
          >
            {SORT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {t(option.label)}
              </option>
            ))}
          </select>
        </div>
      </div>

      {/* Always in the page, so screen readers hear the message when it appears (WAI-ARIA status). */}
      <div role="status" aria-live="polite" className="not-empty:mb-4">
        {deletedMessage ? <p className="rounded-lg bg-green-50 px-3 py-2 font-medium text-green-800">{deletedMessage}</p> : null}
      </div>

      <p role="status" className="mb-4 min-h-5 text-sm text-slate-700">
        {all && all.length > 0 ? (
          filtered ? (
            <Plural value={total} one={`Showing ${shownCount} of # record`} other={`Showing ${shownCount} of # records`} />
          ) : (
            <Plural value={total} one="# record" other="# records" />
          )
        ) : null}
      </p>

      {/* A failed refetch keeps the records on screen: the toast above says it failed. */}
      <QueryState
        query={files}
        keepData
        loading={t`Loading records...`}
        error={t`Your records could not be loaded.`}
        isEmpty={(records) => records.length === 0}
        empty={
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
            <p className="text-lg font-semibold text-slate-900">
              <Trans>No records yet</Trans>
            </p>
            <p className="mt-1 text-slate-700">
              {filteredPerson ? t`Upload a medical record for ${filteredName} to see it here.` : t`Upload a medical record to see it here.`}
            </p>
            <Link
              to={personId ? `/update-records?${new URLSearchParams({ person: personId }).toString()}` : '/update-records'}
              className={buttonClassName('primary', 'md', 'mt-4')}
            >
              <Trans>Upload Records</Trans>
            </Link>
          </div>
        }
      >
        {() =>
          shown.length === 0 ? (
            <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
              <Trans>No records match your search.</Trans>
            </p>
          ) : (
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-label={t`Medical records`}>
              {shown.map((file) => (
                <li key={file.id}>
                  <RecordCard
                    file={file}
                    personName={manyPeople ? personNameOf(peopleList, file.person_id, file.person_name) : null}
                    canEdit={canEditFile(file.person_id)}
                    onDelete={(chosen) => {
                      setDeletedMessage('');
                      setPendingDelete(chosen);
                    }}
                    match={inside.has(file.id) ? <ContentMatch result={inside.get(file.id)!} /> : undefined}
                  />
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>

      <ConfirmDialog
        open={pendingDelete !== null}
        title={t`Confirm Delete`}
        message={pendingDelete ? t`Are you sure you want to delete “${pendingName}”? This action cannot be undone.` : ''}
        busy={deleteFile.isPending}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
      <UploadRecordModal open={uploadOpen} onClose={() => setUploadOpen(false)} personId={personId || null} />
      <ViewFilesModal open={viewFilesOpen} onClose={() => setViewFilesOpen(false)} />
    </div>
  );
}

/** The line of a file that matched View Records' search, its matches marked, and the page it is on. */
function ContentMatch({ result }: { result: SearchResult }) {
  const page = result.page;
  return (
    <div className="rounded-lg border-s-4 border-amber-300 bg-amber-50 px-3 py-2">
      <p className="text-xs font-semibold tracking-wide text-slate-700 uppercase">
        <Trans>Page {page}</Trans>
      </p>
      <HighlightedSnippet snippet={result.snippet} highlights={result.highlights} />
    </div>
  );
}
