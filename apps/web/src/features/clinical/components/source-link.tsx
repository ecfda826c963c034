import { useLingui } from '@lingui/react/macro';
import { fileContentPath } from '@kinchart/shared/files';
import { useFiles } from '../../files/api/get-files';
import { recordName } from '../../files/utils/record-list';
import type { LabSource } from '../utils/lab-groups';

/**
 * Issue 34: a link back to the report a result was read from, opened at its page (`#page=N`, as
 * search results open a PDF) in a new tab. The name comes from the records list the app already
 * holds; without it the link still opens the file.
 */
export function SourceLink({ source, className = '' }: { source: LabSource; className?: string }) {
  const { t } = useLingui();
  const files = useFiles();
  const file = files.data?.find((f) => f.id === source.fileId);
  const pdf = !file || file.file_type === 'application/pdf';
  const href = `${file?.url ?? fileContentPath(source.fileId)}${pdf && source.page !== null ? `#page=${source.page}` : ''}`;
  const page = source.page;
  const name = file ? recordName(file) : null;
  const fromText = name
    ? page !== null
      ? t`From ${name}, page ${page}`
      : t`From ${name}`
    : page !== null
      ? t`From the report, page ${page}`
      : t`From the report`;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={`font-medium text-brand-700 underline ${className}`}>
      {fromText} <span className="sr-only">{t`(opens in a new tab)`}</span>
    </a>
  );
}
