import { useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { SEARCH_QUERY_MAX } from '@kinchart/shared/search';
import { Trans, useLingui } from '@lingui/react/macro';

/** Typing goes into this element: `/` is a character there, not the shortcut. */
function isTypingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  // Checkboxes, radios and buttons take no text.
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color', 'image'].includes(target.type);
}

/**
 * The signed-in bar's search (issue 33): a labelled field that `/` focuses from anywhere except
 * while typing in a field, and Enter opens /search?q=…. On narrower screens it hides behind a
 * button and opens below the bar, so the bar still fits a 390 px phone.
 */
export function SearchBox() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const current = pathname === '/search' ? (params.get('q') ?? '') : '';
  const [value, setValue] = useState(current);
  const [open, setOpen] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const fieldId = useId();

  // The results page's query shows here too; elsewhere the field starts empty.
  useEffect(() => setValue(current), [current]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      // Not while typing, nor from under an open dialog (it keeps focus inside itself).
      if (isTypingIn(event.target) || document.querySelector('[aria-modal="true"]')) return;
      event.preventDefault();
      setOpen(true);
      // Shown at once when it is hidden on this screen size (the effect below focuses it then too).
      inputRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus && toggleRef.current && toggleRef.current.offsetParent !== null) toggleRef.current.focus();
  };

  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={open}
        aria-controls={fieldId}
        onClick={() => (open ? close(false) : setOpen(true))}
        className="inline-flex size-11 items-center justify-center rounded-lg text-white hover:bg-brand-800 lg:hidden"
      >
        <span className="sr-only">
          <Trans>Search</Trans>
        </span>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
          <circle cx="11" cy="11" r="6.5" />
          <path d="M16 16l4.5 4.5" />
        </svg>
      </button>
      <form
        id={fieldId}
        role="search"
        aria-label={t`All records`}
        className={`${open ? 'flex' : 'hidden'} absolute inset-x-0 top-full z-30 border-t border-brand-800 bg-brand-900 px-4 py-3 sm:px-6 lg:static lg:flex lg:w-72 lg:border-0 lg:bg-transparent lg:p-0 xl:w-96`}
        onSubmit={(event) => {
          event.preventDefault();
          const q = value.trim();
          if (q === '') return;
          close(false);
          inputRef.current?.blur();
          void navigate(`/search?q=${encodeURIComponent(q)}`);
        }}
      >
        <input
          ref={inputRef}
          type="search"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && open) {
              event.preventDefault();
              close(true);
            }
          }}
          aria-label={t`Search your records`}
          aria-keyshortcuts="/"
          placeholder={t`Search records…`}
          maxLength={SEARCH_QUERY_MAX}
          enterKeyHint="search"
          className="min-h-11 w-full rounded-lg border border-brand-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-600 focus:outline-2 focus:outline-offset-2 focus:outline-white"
        />
      </form>
    </>
  );
}
