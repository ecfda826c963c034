import { useId } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatFileSize } from '@kinchart/shared/files';
import { QueryState } from '../../../components/query-state';
import { useStorage } from '../api/get-storage';

/** From this share of the quota on, the block says the storage is almost full. */
const ALMOST_FULL = 0.9;

/**
 * Settings → Account Settings: the space the account's files take out of its quota (DESIGN §5,
 * STORAGE_QUOTA_MB). Sizes in base-1024 units, as everywhere else in the app (SPEC §9).
 */
export function StorageUsage() {
  const { t } = useLingui();
  const storage = useStorage();
  return (
    <QueryState query={storage} loading={t`Loading...`} error={t`Could not load how much storage is used.`} retryLabel={t`Retry`} compact>
      {({ used_bytes: used, quota_bytes: quota }) => <StorageMeter used={used} quota={quota} />}
    </QueryState>
  );
}

function StorageMeter({ used, quota }: { used: number; quota: number }) {
  const { t } = useLingui();
  const hintId = useId();
  const usedSize = formatFileSize(used);
  const quotaSize = formatFileSize(quota);
  const almostFull = used >= quota * ALMOST_FULL;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium text-slate-800">
        <Trans>
          Storage: {usedSize} of {quotaSize} used
        </Trans>
      </p>
      <progress
        aria-label={t`Storage used`}
        aria-describedby={hintId}
        value={Math.min(used, quota)}
        max={quota}
        className={`h-2 w-full overflow-hidden rounded-full bg-slate-200 [&::-moz-progress-bar]:rounded-full [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:rounded-full ${
          almostFull
            ? '[&::-moz-progress-bar]:bg-amber-600 [&::-webkit-progress-value]:bg-amber-600'
            : '[&::-moz-progress-bar]:bg-brand-700 [&::-webkit-progress-value]:bg-brand-700'
        }`}
      />
      <p id={hintId} className={`text-sm ${almostFull ? 'font-medium text-amber-900' : 'text-slate-700'}`}>
        {almostFull
          ? t`Your storage is almost full. Delete files you no longer need to make room for new uploads and imports.`
          : t`Files you upload or import count towards it.`}
      </p>
    </div>
  );
}
