import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';

export interface MemberActionsMenuProps {
  memberName: string;
  onEdit: () => void;
  onDelete: () => void;
}

const ITEMS = [
  { id: 'edit', label: msg`Edit Member` },
  { id: 'delete', label: msg`Delete Member` },
] as const;

/**
 * A member card's menu (WAI-ARIA APG "Menu Button"): Enter, Space or the arrow keys open it and
 * focus an item; arrows, Home and End move; Escape closes it and gives focus back to the button;
 * Tab or a click elsewhere closes it.
 */
export function MemberActionsMenu({ memberName, onEdit, onDelete }: MemberActionsMenuProps) {
  const { t } = useLingui();
  const buttonId = useId();
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (open) itemRefs.current[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const openAt = (index: number) => {
    setActive(index);
    setOpen(true);
  };

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const choose = (id: (typeof ITEMS)[number]['id']) => {
    close(true);
    if (id === 'edit') onEdit();
    else onDelete();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      openAt(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(ITEMS.length - 1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const last = ITEMS.length - 1;
    if (event.key === 'ArrowDown') setActive((i) => (i === last ? 0 : i + 1));
    else if (event.key === 'ArrowUp') setActive((i) => (i === 0 ? last : i - 1));
    else if (event.key === 'Home') setActive(0);
    else if (event.key === 'End') setActive(last);
    else if (event.key === 'Escape') close(true);
    else if (event.key === 'Tab') {
      setOpen(false);
      return;
    } else return;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        aria-label={t`Actions for ${memberName}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
        className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
      >
        <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" focusable="false" className="size-5">
          <circle cx="10" cy="4" r="1.7" />
          <circle cx="10" cy="10" r="1.7" />
          <circle cx="10" cy="16" r="1.7" />
        </svg>
      </button>
      {open ? (
        <ul
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          onKeyDown={onMenuKeyDown}
          className="absolute end-0 z-20 mt-1 w-44 rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {ITEMS.map((item, index) => (
            <li key={item.id} role="none">
              <button
                ref={(el) => {
                  itemRefs.current[index] = el;
                }}
                type="button"
                role="menuitem"
                tabIndex={index === active ? 0 : -1}
                onClick={() => choose(item.id)}
                className={`block w-full px-4 py-2 text-start text-sm font-medium hover:bg-slate-100 focus:bg-slate-100 ${
                  item.id === 'delete' ? 'text-red-700' : 'text-slate-800'
                }`}
              >
                {t(item.label)}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
