import { Trans, useLingui } from '@lingui/react/macro';
import { useParams } from 'react-router';
import { SHARE_LINK_GONE_MESSAGE, acceptedFileType } from '@kinchart/shared/files';
import { buttonClassName } from '../../../components/ui/button';
import { DocumentTitle } from '../../../components/ui/page-header';
import { translateMessageText } from '../../../i18n/message-text';
import { ApiError } from '../../../lib/api-client';
import { useSharedFiles } from '../api/get-shared-files';
import { DocumentIcon } from '../components/icons';
import { activeIntlLocale, fileSize } from '../utils/format';

// A proper name: the same in every language.
const PRODUCT_NAME = 'Kinchart';

/**
 * /shared/:token — the page a View Files QR code or link opens (decision 0006): the shared records,
 * each with a link that opens it, for anyone holding the link until it expires or is revoked.
 */
export function SharedFilesPage() {
  const { token = '' } = useParams();
  const { t } = useLingui();
  const shared = useSharedFiles(token);
  /** A file type's short name: an abbreviation (PDF, JPEG) as it is, words in the reader's language. */
  const typeLabel = (mime: string) => {
    const label = acceptedFileType(mime)?.label;
    if (label === undefined) return t`File`;
    return label === 'plain text' ? t`plain text` : label;
  };

  const until = shared.data ? new Date(shared.data.expires_at).toLocaleString(activeIntlLocale()) : '';

  return (
    <div className="flex flex-col gap-6">
      <DocumentTitle title={t`Shared medical records`} />
      <header>
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{PRODUCT_NAME}</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          <Trans>Shared medical records</Trans>
        </h1>
      </header>

      {shared.isPending ? (
        <p className="text-slate-700">
          <Trans>Loading...</Trans>
        </p>
      ) : shared.isError ? (
        <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-red-800">
          <p className="font-semibold">
            {shared.error instanceof ApiError && shared.error.status === 404
              ? translateMessageText(SHARE_LINK_GONE_MESSAGE)
              : t`The shared records could not be loaded. Please try again later.`}
          </p>
          {shared.error instanceof ApiError && shared.error.status === 404 ? (
            <p className="mt-2 text-sm">
              <Trans>Ask the person who shared it for a new link.</Trans>
            </p>
          ) : null}
        </div>
      ) : (
        <>
          <p className="text-slate-700">
            {shared.data.files.length === 1
              ? t`Someone shared this record with you. The link works until ${until}.`
              : t`Someone shared these records with you. The link works until ${until}.`}
          </p>
          {shared.data.files.length === 0 ? (
            <p className="text-slate-700">
              <Trans>No records yet</Trans>
            </p>
          ) : (
            <ul className="flex flex-col gap-3">
              {shared.data.files.map((file) => (
                <li
                  key={file.id}
                  className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="flex min-w-0 items-start gap-3">
                    <DocumentIcon className="mt-0.5 size-6 shrink-0 text-brand-700" />
                    <div className="min-w-0">
                      <p id={`shared-${file.id}`} className="font-semibold break-words text-slate-900">
                        {file.name}
                      </p>
                      <p className="text-sm text-slate-700">
                        {typeLabel(file.file_type)} · {fileSize(file.size)}
                      </p>
                    </div>
                  </div>
                  <a
                    href={file.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-describedby={`shared-${file.id}`}
                    className={buttonClassName('primary', 'sm', 'shrink-0')}
                  >
                    <Trans>Open</Trans>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
