import { useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  'summary',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

const FIELD = 'input, select, textarea, [contenteditable="true"]';

function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    // :disabled also holds for a field in a disabled fieldset, which has no attribute of its own.
    (el) => !el.hasAttribute('hidden') && el.getAttribute('aria-hidden') !== 'true' && !el.closest('[hidden]') && !el.matches(':disabled'),
  );
}

/**
 * A dialog body that scrolls must be reachable by keyboard (WCAG 2.1.1; axe
 * scrollable-region-focusable): when it overflows and holds nothing focusable, it joins the tab
 * order itself so arrow keys can scroll it. A body that fits adds no tab stop.
 */
function useKeyboardScrollable(body: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const element = body.current;
    if (!element) return;
    const update = () => {
      const needsStop = element.scrollHeight > element.clientHeight && focusableIn(element).length === 0;
      if (needsStop) element.setAttribute('tabindex', '0');
      else element.removeAttribute('tabindex');
    };
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(element);
    for (const child of Array.from(element.children)) observer.observe(child);
    const mutations = new MutationObserver(update);
    // A form that disables its fields while it sends leaves nothing to focus until it is done.
    mutations.observe(element, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden'] });
    return () => {
      observer.disconnect();
      mutations.disconnect();
    };
  }, [body]);
}

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
  /** Buttons shown at the bottom of the dialog. */
  footer?: ReactNode;
  /** Text that describes the dialog; announced with the title. */
  description?: ReactNode;
  /** "alertdialog" for confirmations that interrupt the user. */
  role?: 'dialog' | 'alertdialog';
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /**
   * The element to focus when the dialog opens; otherwise the first form field, or the first
   * action (not the × control) when the dialog has no field. A ref from useRef: a new object would
   * focus again.
   */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Clicking the dimmed backdrop closes the dialog (default true). */
  closeOnBackdrop?: boolean;
  /** The accessible name of the × control. */
  closeLabel?: string;
}

const widths: Record<NonNullable<ModalProps['size']>, string> = {
  sm: 'max-w-sm',
  md: 'max-w-lg',
  lg: 'max-w-2xl',
  xl: 'max-w-4xl',
};

/**
 * A modal dialog (WAI-ARIA APG "Dialog (Modal)"): labelled by its title, keeps keyboard focus
 * inside while open, closes on Escape and gives focus back to whatever opened it.
 */
export function Modal(props: ModalProps) {
  if (!props.open) return null;
  return createPortal(<ModalPanel {...props} />, document.body);
}

function ModalPanel({
  onClose,
  title,
  children,
  footer,
  description,
  role = 'dialog',
  size = 'md',
  initialFocusRef,
  closeOnBackdrop = true,
  closeLabel,
}: ModalProps) {
  const { t } = useLingui();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  useKeyboardScrollable(bodyRef);
  const titleId = useId();
  const descriptionId = useId();
  const latestOnClose = useRef(onClose);
  useEffect(() => {
    latestOnClose.current = onClose;
  });

  // Focus in on open; give focus back and restore page scrolling on close.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    // WAI-ARIA APG "Dialog (Modal)": focus the element a person most likely wants first — the
    // first field of a form, else the first action; × only when there is nothing else.
    const items = panel ? focusableIn(panel) : [];
    const target =
      initialFocusRef?.current ?? items.find((el) => el.matches(FIELD)) ?? items.find((el) => el !== closeRef.current) ?? items[0] ?? panel;
    target?.focus();

    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      if (opener?.isConnected) opener.focus();
    };
    // Runs once per opening: callers pass a ref from useRef, the same object on every render, and
    // its element is read at that moment.
  }, [initialFocusRef]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      // Stop here so a dialog opened from another dialog closes alone.
      event.stopPropagation();
      event.preventDefault();
      latestOnClose.current();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const items = focusableIn(panelRef.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panelRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center p-0 sm:items-center sm:p-4">
      <div
        className="absolute inset-0 bg-slate-900/60"
        aria-hidden="true"
        data-testid="modal-backdrop"
        onClick={closeOnBackdrop ? () => latestOnClose.current() : undefined}
      />
      <div
        ref={panelRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={`relative flex max-h-[92vh] w-full ${widths[size]} flex-col overflow-hidden rounded-t-2xl bg-white shadow-xl sm:rounded-2xl`}
      >
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4">
          <div>
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="mt-1 text-sm text-slate-700">
                {description}
              </p>
            ) : null}
          </div>
          <button
            ref={closeRef}
            type="button"
            onClick={() => latestOnClose.current()}
            aria-label={closeLabel ?? t`Close`}
            className="-m-1 inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-2xl leading-none text-slate-700 hover:bg-slate-100"
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {children ? (
          <div ref={bodyRef} className="overflow-y-auto px-5 py-4">
            {children}
          </div>
        ) : null}
        {footer ? <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 bg-slate-50 px-5 py-3">{footer}</div> : null}
      </div>
    </div>
  );
}
