import { useRef, useState } from 'react';
import { IMPORT_ACCEPT } from '@kinchart/shared/export';
import { ImportDialog } from './import-dialog';

/**
 * SPEC §2 Layout: the mobile menu's Import opens the file picker. The chosen file then opens the
 * import dialog, which says what will happen (and, for a FHIR Bundle, asks whose it is) before
 * anything is sent.
 */
export function ImportMenuButton({ className, onChosen }: { className: string; onChosen?: () => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  return (
    <>
      <button type="button" onClick={() => inputRef.current?.click()} className={className}>
        Import
      </button>
      <input
        ref={inputRef}
        type="file"
        hidden
        tabIndex={-1}
        aria-label="Import"
        accept={IMPORT_ACCEPT}
        onChange={(event) => {
          const chosen = event.target.files?.[0] ?? null;
          event.target.value = '';
          if (!chosen) return;
          onChosen?.();
          setFile(chosen);
        }}
      />
      <ImportDialog file={file} onClose={() => setFile(null)} />
    </>
  );
}
