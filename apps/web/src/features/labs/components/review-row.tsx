import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { LAB_FLAGS } from '@kinchart/shared/labs';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { SelectField } from '../../../components/ui/form-controls';
import { formatDate } from '../../../lib/format';
import { rowSummary, type LabFlag, type ReviewField, type ReviewRow } from '../utils/review-rows';
import { LabTestCombobox } from './lab-test-combobox';

/** The report's flags as words (the stored flag stays the letter). */
const FLAG_WORDS: Record<LabFlag, MessageDescriptor> = {
  H: msg({ message: 'High', comment: 'Lab result interpretation' }),
  L: msg({ message: 'Low', comment: 'Lab result interpretation' }),
  A: msg({ message: 'Abnormal', comment: 'Lab result interpretation' }),
};

/** The row's texts in the reader's language. */
function useTexts() {
  const { t } = useLingui();
  return {
    include: t({ message: 'Include', comment: 'Checkbox: add this found lab result' }),
    edit: t`Edit`,
    done: t`Done`,
    notMatched: t`Not matched`,
    loinc: (code: string) => `LOINC ${code}`,
    range: (range: string) => t`Range ${range}`,
    noDate: t`No date`,
    showLine: (page: number) => t`Show on page ${page}`,
    readFrom: t`Read from:`,
    left: t`Left out`,
    fields: {
      name: t`Test name`,
      value: t`Value`,
      unit: t`Unit`,
      reference_low: t`Reference low`,
      reference_high: t`Reference high`,
      reference_text: t`Range as written`,
      flag: t`Flag`,
      date: t`Date`,
    },
    noFlag: t({ message: 'None', comment: 'No flag on a lab result' }),
    matchLabel: t`Match to a test in the table`,
    findTest: t`Find the test`,
    changeMatchLabel: t`Change the test`,
    unmatch: t`Remove the match`,
    flagWord: (flag: LabFlag) => t(FLAG_WORDS[flag]),
  };
}

/** The element id of a row's field, so the page can focus the first one that needs fixing. */
export const rowFieldId = (key: string, field: ReviewField) => `lab-row-${key}-${field}`;

export interface ReviewRowProps {
  row: ReviewRow;
  canEdit: boolean;
  active: boolean;
  editing: boolean;
  errors: Partial<Record<ReviewField, string>>;
  onChange: (patch: Partial<ReviewRow>) => void;
  onToggleEdit: () => void;
  /** The row came into focus (or was clicked): its line is highlighted in the page beside it. */
  onActivate: () => void;
  /** "Show on page N": the row comes into focus and the page is brought into view. */
  onShowLine: () => void;
  /** "Find the test" of an unmatched row: its fields open with the cursor in the table's search. */
  onFindTest: () => void;
}

/**
 * One result found in the report (issue 34): what was read — name, value and unit, range, flag,
 * date, the LOINC test it maps to (or "Not matched") and the line it came from — with, for an
 * editor, "Include" and the fields to correct it.
 */
export function ReviewRowItem({
  row,
  canEdit,
  active,
  editing,
  errors,
  onChange,
  onToggleEdit,
  onActivate,
  onShowLine,
  onFindTest,
}: ReviewRowProps) {
  const TEXT = useTexts();
  const titleId = `lab-row-${row.key}-title`;
  const { value, range } = rowSummary(row);
  const name = row.name.trim() || row.found.name;
  const text = (field: Exclude<ReviewField, 'flag' | 'date' | 'loinc'>, extra: { inputMode?: 'decimal' } = {}) => (
    <Field
      id={rowFieldId(row.key, field)}
      label={TEXT.fields[field]}
      value={row[field]}
      error={errors[field]}
      onChange={(event) => onChange({ [field]: event.target.value })}
      autoComplete="off"
      {...extra}
    />
  );

  return (
    <li
      aria-labelledby={titleId}
      onFocus={onActivate}
      onClick={onActivate}
      className={`flex flex-col gap-3 rounded-xl border bg-white p-4 shadow-sm ${
        active ? 'border-amber-500 ring-2 ring-amber-300' : 'border-slate-200'
      } ${row.include ? '' : 'bg-slate-50'}`}
    >
      <div className="flex items-start gap-3">
        {canEdit ? (
          <label className="flex min-h-11 shrink-0 items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              checked={row.include}
              onChange={(event) => onChange({ include: event.target.checked })}
              className="size-5 accent-brand-700"
            />
            {TEXT.include} <span className="sr-only">{name}</span>
          </label>
        ) : null}
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h3
            id={titleId}
            className={`text-base font-semibold break-words ${row.include ? 'text-slate-900' : 'text-slate-600 line-through'}`}
          >
            {name}
          </h3>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <span className="font-semibold text-slate-900 tabular-nums">{value}</span>
            {range ? <span className="text-slate-700">{TEXT.range(range)}</span> : null}
            {row.flag ? (
              <span className="rounded bg-red-50 px-1.5 py-0.5 font-semibold text-red-800">{TEXT.flagWord(row.flag)}</span>
            ) : null}
            <span className="text-slate-700">{row.date ? formatDate(row.date) : TEXT.noDate}</span>
            {!row.include ? <span className="font-medium text-slate-700">{TEXT.left}</span> : null}
          </p>
          <p className="text-sm">
            {row.loinc ? (
              <span className="text-slate-700">
                {TEXT.loinc(row.loinc)}
                {row.loinc_display ? ` · ${row.loinc_display}` : ''}
              </span>
            ) : (
              <span className="inline-flex flex-wrap items-center gap-2">
                <span className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900">{TEXT.notMatched}</span>
                {canEdit ? (
                  <Button variant="ghost" size="sm" onClick={onFindTest}>
                    {TEXT.findTest} <span className="sr-only">{name}</span>
                  </Button>
                ) : null}
              </span>
            )}
          </p>
          <p className="text-xs break-words text-slate-600">
            <span className="font-medium">{TEXT.readFrom} </span>
            <q className="font-mono">{row.found.source_text}</q>
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="ghost" size="sm" onClick={onShowLine}>
          {TEXT.showLine(row.found.page)} <span className="sr-only">({name})</span>
        </Button>
        {canEdit ? (
          <Button variant="secondary" size="sm" aria-expanded={editing} aria-controls={`lab-row-${row.key}-editor`} onClick={onToggleEdit}>
            {editing ? TEXT.done : TEXT.edit} <span className="sr-only">{name}</span>
          </Button>
        ) : null}
      </div>
      {canEdit && editing ? (
        <fieldset id={`lab-row-${row.key}-editor`} className="flex flex-col gap-3 border-t border-slate-200 pt-3">
          <legend className="sr-only">{name}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {text('name')}
            {text('value')}
            {text('unit')}
            <SelectField
              id={rowFieldId(row.key, 'flag')}
              label={TEXT.fields.flag}
              value={row.flag}
              onChange={(event) => onChange({ flag: event.target.value as LabFlag | '' })}
            >
              <option value="">{TEXT.noFlag}</option>
              {LAB_FLAGS.map((flag) => (
                <option key={flag} value={flag}>
                  {TEXT.flagWord(flag)}
                </option>
              ))}
            </SelectField>
            {text('reference_low', { inputMode: 'decimal' })}
            {text('reference_high', { inputMode: 'decimal' })}
            {text('reference_text')}
            <Field
              id={rowFieldId(row.key, 'date')}
              type="date"
              label={TEXT.fields.date}
              value={row.date}
              error={errors.date}
              onChange={(event) => onChange({ date: event.target.value })}
            />
          </div>
          <div className="flex flex-col gap-2">
            <LabTestCombobox
              inputId={rowFieldId(row.key, 'loinc')}
              label={row.loinc ? TEXT.changeMatchLabel : TEXT.matchLabel}
              onChoose={(test) => onChange({ loinc: test.loinc, loinc_display: test.name })}
            />
            {row.loinc ? (
              <div>
                <Button variant="ghost" size="sm" onClick={() => onChange({ loinc: null, loinc_display: null })}>
                  {TEXT.unmatch}
                </Button>
              </div>
            ) : null}
          </div>
        </fieldset>
      ) : null}
    </li>
  );
}
