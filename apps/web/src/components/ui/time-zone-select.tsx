import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { timeZoneLabel, timeZoneNames } from '../../lib/time-zones';
import { inputClassName } from './field';

export interface TimeZoneSelectProps {
  label: string;
  /** An IANA zone, or '' for `emptyLabel` (a person's "Same as my account"). */
  value: string;
  onChange: (zone: string) => void;
  /** A first choice meaning "no zone of its own" (value ''). */
  emptyLabel?: string;
  hint?: ReactNode;
  error?: string | undefined;
  disabled?: boolean;
  containerClassName?: string;
}

/**
 * A searchable choice of IANA time zone (issue 32): a search box narrows a native select of the
 * zones the browser knows, so phones keep their own picker and screen readers know both. The
 * chosen zone always stays among the choices, whatever the search says.
 */
export function TimeZoneSelect({
  label,
  value,
  onChange,
  emptyLabel,
  hint,
  error,
  disabled,
  containerClassName = '',
}: TimeZoneSelectProps) {
  const { t } = useLingui();
  const id = useId();
  const [search, setSearch] = useState('');
  const found = useMemo(() => {
    const all = timeZoneNames();
    const words = search.trim().toLowerCase().replaceAll(' ', '_');
    return words ? all.filter((zone) => zone.toLowerCase().includes(words)) : all;
  }, [search]);
  const zones = value && !found.includes(value) ? [value, ...found] : found;
  const described = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`flex min-w-0 flex-col gap-2 ${containerClassName}`}>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-search`} className="text-sm font-medium text-slate-800">
          <Trans>Search time zones</Trans>
        </label>
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          disabled={disabled}
          autoComplete="off"
          placeholder={t`City or region, e.g. Madrid`}
          onChange={(event) => setSearch(event.target.value)}
          className={inputClassName}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        <select
          id={id}
          value={value}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          onChange={(event) => onChange(event.target.value)}
          className={`${inputClassName} min-h-11`}
        >
          {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {timeZoneLabel(zone)}
            </option>
          ))}
        </select>
        <p className="text-sm text-slate-600" aria-live="polite">
          {search.trim() ? `${found.length} ${found.length === 1 ? 'zone matches' : 'zones match'}` : ''}
        </p>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
