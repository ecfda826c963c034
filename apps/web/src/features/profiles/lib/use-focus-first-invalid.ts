import { useEffect, useState } from 'react';
import type { FieldErrors, FieldValues, Path, UseFormSetFocus } from 'react-hook-form';

/**
 * For a tabbed form: on an invalid submit, `showField` brings the first wrong field's tab into
 * view, and the field is focused once that tab has rendered. Returns the handler for the invalid
 * submit (react-hook-form's second handleSubmit argument).
 */
export function useFocusFirstInvalid<T extends FieldValues>(setFocus: UseFormSetFocus<T>, showField: (field: Path<T>) => void) {
  const [focusField, setFocusField] = useState<Path<T> | null>(null);

  useEffect(() => {
    if (!focusField) return;
    setFocus(focusField);
    setFocusField(null);
  }, [focusField, setFocus]);

  return (errors: FieldErrors<T>) => {
    const first = Object.keys(errors)[0] as Path<T> | undefined;
    if (!first) return;
    showField(first);
    setFocusField(first);
  };
}
