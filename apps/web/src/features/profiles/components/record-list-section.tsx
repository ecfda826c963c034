import { useState, type ComponentType, type ReactNode } from 'react';
import type { RecordFormProps } from './record-form-frame';
import { RecordListEditor, type RecordSummary } from './record-list-editor';

export interface RecordListSectionProps<T, V> {
  /** Which rules the record forms apply: the own profile's or the family editor's (SPEC §5). */
  variant?: 'profile' | 'family';
  heading: string;
  emptyText: string;
  note: string;
  items: readonly T[];
  describe: (item: T) => RecordSummary;
  form: ComponentType<RecordFormProps<T, V>>;
  /** Adds the record (item null) or saves the edited one; resolves the message to show. */
  save: (values: V, item: T | null) => Promise<string>;
  /** The message for a save that failed. */
  saveError: (error: unknown, item: T | null) => string;
  /** Removes the record; resolves the message to show. */
  remove: (item: T) => Promise<string>;
  /** The message for a removal that failed. */
  removeError: (error: unknown) => string;
  /** More of a record under its details. */
  extra?: ((item: T) => ReactNode) | undefined;
  /** The id of a record's row, for links to it (issue 33: search results). */
  anchor?: ((item: T) => string) | undefined;
}

/**
 * One list tab of the own profile editor and of the family member editor: each add, update and
 * removal is sent at once and its outcome shown under the list (SPEC §7, §8 messages). The three lists differ only in
 * their labels, API calls and form, which the caller passes in.
 */
export function RecordListSection<T extends { id: string }, V>({
  variant = 'profile',
  heading,
  emptyText,
  note,
  items,
  describe,
  form: Form,
  save,
  saveError,
  remove,
  removeError,
  extra,
  anchor,
}: RecordListSectionProps<T, V>) {
  const [status, setStatus] = useState<string | null>(null);

  return (
    <RecordListEditor
      heading={heading}
      emptyText={emptyText}
      note={note}
      status={status}
      items={items}
      getKey={(record) => record.id}
      getAnchorId={anchor}
      renderExtra={extra}
      describe={describe}
      renderForm={({ item, focusOnMount, onSaved, onCancel }) => (
        <Form
          variant={variant}
          item={item}
          focusOnMount={focusOnMount}
          onCancel={onCancel}
          onSubmit={async (values) => {
            setStatus(null);
            try {
              setStatus(await save(values, item));
              onSaved();
              return true;
            } catch (error) {
              setStatus(saveError(error, item));
              return false;
            }
          }}
        />
      )}
      onRemove={async (record) => {
        setStatus(null);
        try {
          setStatus(await remove(record));
          return true;
        } catch (error) {
          setStatus(removeError(error));
          return false;
        }
      }}
    />
  );
}
