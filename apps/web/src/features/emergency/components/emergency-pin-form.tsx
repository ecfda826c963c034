import { useEffect, useRef, useState, type FormEvent } from 'react';
import { PinInput, isCompletePin } from './pin-input';

export interface EmergencyPinFormProps {
  submitting: boolean;
  error?: string | undefined;
  remainingAttempts?: number | undefined;
  onSubmit: (pin: string) => void;
}

function attemptsText(remaining: number): string {
  if (remaining <= 0) return 'No attempts left: access is paused for a while.';
  return remaining === 1 ? '1 attempt remaining.' : `${remaining} attempts remaining.`;
}

/** SPEC §2 Emergency page state 2: PIN entry titled 'Medical Information Access'. */
export function EmergencyPinForm({ submitting, error, remainingAttempts, onSubmit }: EmergencyPinFormProps) {
  const [pin, setPin] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const complete = isCompletePin(pin);

  // After each refused PIN, clear the field and put the cursor back for the next try.
  const hadError = Boolean(error);
  useEffect(() => {
    if (submitting || !hadError) return;
    setPin('');
    inputRef.current?.focus();
  }, [submitting, hadError]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (complete && !submitting) onSubmit(pin);
  };

  return (
    <div className="rounded-2xl border-2 border-slate-800 bg-white p-5 sm:p-8">
      <h1 className="text-3xl font-extrabold text-black">Medical Information Access</h1>
      <p className="mt-3 text-xl text-black">
        Enter the 4-digit PIN to see this person’s emergency medical information. The PIN is usually printed next to the QR
        code.
      </p>
      <form onSubmit={submit} noValidate className="mt-6 flex flex-col gap-5">
        <PinInput ref={inputRef} label="PIN" size="lg" value={pin} onValueChange={setPin} autoFocus disabled={submitting} />
        {error ? (
          <div role="alert" className="rounded-xl border-2 border-red-800 bg-red-50 px-4 py-3 text-xl font-bold text-red-900">
            <p>{error}</p>
            {remainingAttempts === undefined ? null : <p className="mt-1 text-lg font-semibold">{attemptsText(remainingAttempts)}</p>}
          </div>
        ) : null}
        <button
          type="submit"
          disabled={!complete || submitting}
          className="min-h-14 w-full rounded-xl bg-red-800 px-6 py-3 text-xl font-bold text-white hover:bg-red-900 disabled:cursor-not-allowed disabled:bg-slate-500 sm:w-auto sm:self-start"
        >
          {submitting ? 'Checking...' : 'View Medical Information'}
        </button>
      </form>
    </div>
  );
}
