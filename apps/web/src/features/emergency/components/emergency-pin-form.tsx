import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { PinProblem } from '../api/use-emergency-access';
import { useEmergencyI18n } from '../i18n/use-emergency-i18n';
import type { Translate } from '../i18n/locales';
import { PinInput, isCompletePin } from './pin-input';

export interface EmergencyPinFormProps {
  submitting: boolean;
  problem?: PinProblem | undefined;
  /** Essentials are already on screen: the PIN opens "the rest" (DESIGN §7). */
  afterEssentials?: boolean;
  onSubmit: (pin: string) => void;
}

function attemptsText(t: Translate, remaining: number): string {
  if (remaining <= 0) return t('attemptsNone');
  return remaining === 1 ? t('attemptsOne') : t('attemptsMany', { count: remaining });
}

/** SPEC §2 Emergency page state 2: PIN entry titled 'Medical Information Access'. */
export function EmergencyPinForm({ submitting, problem, afterEssentials = false, onSubmit }: EmergencyPinFormProps) {
  const { t } = useEmergencyI18n();
  const [pin, setPin] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const complete = isCompletePin(pin);

  // The field empties as the PIN is sent, so a refused PIN leaves it ready for the next try; the
  // cursor goes back once the answer is in. (Emptying it when the answer came, in an effect, could
  // wipe digits typed between the answer's render and the effect.)
  const hadError = Boolean(problem);
  useEffect(() => {
    if (!submitting && hadError) inputRef.current?.focus();
  }, [submitting, hadError]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!complete || submitting) return;
    onSubmit(pin);
    setPin('');
  };

  return (
    <div className="rounded-2xl border-2 border-slate-800 bg-white p-5 sm:p-8">
      <h1 className="text-3xl font-extrabold text-black">{t('pinTitle')}</h1>
      <p className="mt-3 text-xl text-black">{afterEssentials ? t('pinIntroMore') : t('pinIntro')}</p>
      <form onSubmit={submit} noValidate className="mt-6 flex flex-col gap-5">
        {/* Essentials above already hold the answer a responder needs first: no focus jump past them. */}
        <PinInput
          ref={inputRef}
          label={t('pinLabel')}
          size="lg"
          value={pin}
          onValueChange={setPin}
          autoFocus={!afterEssentials}
          disabled={submitting}
        />
        {problem ? (
          <div role="alert" className="rounded-xl border-2 border-red-800 bg-red-50 px-4 py-3 text-xl font-bold text-red-900">
            <p>{problem.kind === 'invalid' ? t('invalidPin') : t('unreachable')}</p>
            {problem.kind === 'invalid' && problem.remainingAttempts !== undefined ? (
              <p className="mt-1 text-lg font-semibold">{attemptsText(t, problem.remainingAttempts)}</p>
            ) : null}
          </div>
        ) : null}
        <button
          type="submit"
          disabled={!complete || submitting}
          className="min-h-14 w-full rounded-xl bg-red-800 px-6 py-3 text-xl font-bold text-white hover:bg-red-900 disabled:cursor-not-allowed disabled:bg-slate-500 sm:w-auto sm:self-start"
        >
          {submitting ? t('pinChecking') : t('pinSubmit')}
        </button>
      </form>
    </div>
  );
}
