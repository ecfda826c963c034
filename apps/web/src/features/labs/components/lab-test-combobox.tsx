import { useId, useState, type KeyboardEvent } from 'react';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { inputClassName } from '../../../components/ui/field';
import { LAB_TEST_QUERY_MIN, useLabTests, type LabTest } from '../api/search-lab-tests';

/** A test as the list shows it: "Ferritin · LOINC 2276-4 · ng/mL" (names, codes and units, nothing to translate). */
const optionText = (test: LabTest) => [test.name, `LOINC ${test.loinc}`, test.ucum_unit].filter(Boolean).join(' · ');

/** The combobox's texts in the reader's language. */
function useTexts() {
  const { t } = useLingui();
  const min = LAB_TEST_QUERY_MIN;
  return {
    hint: t`Type at least ${min} letters of the test's name, an abbreviation or its LOINC code.`,
    searching: t`Searching the test table…`,
    none: t`No test in the table matches.`,
    failed: t`The test table could not be searched.`,
    found: (n: number) => t`${plural(n, { one: '# test matches', other: '# tests match' })}. Use the arrow keys to choose.`,
  };
}

/**
 * A search of the LOINC table (GET /api/user/lab-tests?q=) as a WAI-ARIA combobox: type, move
 * through the matches with the arrow keys, Enter (or a click) chooses, Escape closes the list.
 */
export function LabTestCombobox({ label, inputId, onChoose }: { label: string; inputId: string; onChoose: (test: LabTest) => void }) {
  const TEXT = useTexts();
  const id = useId();
  const listId = `${id}-list`;
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const tests = useLabTests(query);
  const options = open && query.trim().length >= LAB_TEST_QUERY_MIN ? (tests.data ?? []) : [];
  const expanded = options.length > 0;

  const choose = (test: LabTest) => {
    onChoose(test);
    setQuery('');
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      const test = options[active];
      if (expanded && test) {
        event.preventDefault();
        choose(test);
      }
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const status =
    query.trim().length < LAB_TEST_QUERY_MIN
      ? ''
      : tests.isError
        ? TEXT.failed
        : tests.isFetching && !tests.data
          ? TEXT.searching
          : tests.data?.length === 0
            ? TEXT.none
            : open && tests.data
              ? TEXT.found(tests.data.length)
              : '';

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <input
          id={inputId}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${id}-option-${active}` : undefined}
          aria-describedby={`${id}-hint ${id}-status`}
          autoComplete="off"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
          className={`${inputClassName} min-h-11`}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={label}
          hidden={!expanded}
          className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-y-auto rounded-lg border border-slate-300 bg-white py-1 shadow-lg"
        >
          {options.map((test, index) => (
            <li
              key={test.loinc}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              // Keeps the focus in the input, so the click below still finds the list open.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(test)}
              className={`cursor-pointer px-3 py-2 text-sm text-slate-900 ${index === active ? 'bg-brand-100' : 'hover:bg-slate-100'}`}
            >
              {optionText(test)}
            </li>
          ))}
        </ul>
      </div>
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        {TEXT.hint}
      </p>
      <p id={`${id}-status`} role="status" className="text-sm text-slate-700 empty:hidden">
        {status}
      </p>
    </div>
  );
}
