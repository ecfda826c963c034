import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<T extends string = string> {
  id: T;
  label: ReactNode;
  content: ReactNode;
}

export interface TabsProps<T extends string = string> {
  /** Names the tab list for assistive technology. */
  label: string;
  items: readonly TabItem<T>[];
  /** Controlled selection; pair with onChange. */
  value?: T;
  defaultValue?: T;
  onChange?: (id: T) => void;
  orientation?: 'horizontal' | 'vertical';
  className?: string;
}

/**
 * WAI-ARIA APG tabs with automatic activation: arrow keys move between tabs (Left/Right, or
 * Up/Down when vertical), Home and End jump to the ends, only the selected tab is in the Tab
 * order. Every panel stays mounted, so half-filled forms survive switching tabs.
 */
export function Tabs<T extends string = string>({
  label,
  items,
  value,
  defaultValue,
  onChange,
  orientation = 'horizontal',
  className = '',
}: TabsProps<T>) {
  const baseId = useId();
  const [internal, setInternal] = useState<T | undefined>(defaultValue ?? items[0]?.id);
  const selected = value ?? internal;
  const tabRefs = useRef(new Map<T, HTMLButtonElement>());
  const vertical = orientation === 'vertical';

  const select = (id: T) => {
    if (value === undefined) setInternal(id);
    onChange?.(id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.id === selected);
    const prevKey = vertical ? 'ArrowUp' : 'ArrowLeft';
    const nextKey = vertical ? 'ArrowDown' : 'ArrowRight';
    let next: number | undefined;
    if (event.key === prevKey) next = (index - 1 + items.length) % items.length;
    else if (event.key === nextKey) next = (index + 1) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    const item = next === undefined ? undefined : items[next];
    if (!item) return;
    event.preventDefault();
    select(item.id);
    tabRefs.current.get(item.id)?.focus();
  };

  const tabId = (id: T) => `${baseId}-tab-${id}`;
  const panelId = (id: T) => `${baseId}-panel-${id}`;

  return (
    <div className={`${vertical ? 'flex flex-col gap-4 md:flex-row' : 'flex flex-col gap-4'} ${className}`}>
      <div
        role="tablist"
        aria-label={label}
        aria-orientation={orientation}
        onKeyDown={onKeyDown}
        className={
          // The tabs wrap onto another line rather than run off the edge, where a tab would be cut
          // off or hidden behind a scroll nobody sees (issue 30: Settings on a phone, Edit Member at 1280 px).
          vertical ? 'flex shrink-0 flex-row flex-wrap gap-1 md:w-56 md:flex-col' : 'flex flex-wrap gap-x-1 border-b border-slate-300'
        }
      >
        {items.map((item) => {
          const isSelected = item.id === selected;
          return (
            <button
              key={item.id}
              ref={(el) => {
                if (el) tabRefs.current.set(item.id, el);
                else tabRefs.current.delete(item.id);
              }}
              type="button"
              role="tab"
              id={tabId(item.id)}
              aria-selected={isSelected}
              aria-controls={panelId(item.id)}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => select(item.id)}
              className={
                vertical
                  ? `whitespace-nowrap rounded-lg px-4 py-2 text-start text-sm font-medium ${
                      isSelected ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-200'
                    }`
                  : `-mb-px whitespace-nowrap border-b-2 px-4 py-2 text-sm font-medium ${
                      isSelected
                        ? 'border-brand-700 text-brand-800'
                        : 'border-transparent text-slate-700 hover:border-slate-400 hover:text-slate-900'
                    }`
              }
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.id}
          role="tabpanel"
          id={panelId(item.id)}
          aria-labelledby={tabId(item.id)}
          tabIndex={0}
          hidden={item.id !== selected}
          className="min-w-0 flex-1"
        >
          {item.content}
        </div>
      ))}
    </div>
  );
}
