import { useId, useState, type FormEvent } from 'react';
import { select } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button';
import { PinInput, isCompletePin, pinFormatMessage } from './pin-input';
import { whoseParts, type Whose } from './whose';

interface Props {
  /** Who the code is for, in running text: "your" / "Rex's". */
  whose: Whose;
  busy: boolean;
  /** Resolves true when the code was set up, so the form can be cleared. */
  onSubmit: (pin: string, essentialsWithoutPin: boolean) => Promise<boolean>;
}

/**
 * Setting up a code (SPEC §4 "QR code per person"): the PIN, and — asked plainly here rather than
 * left to a setting the owner may never find (issue 30) — whether the essentials may show without
 * it. Neither answer is chosen for the owner; the set-up waits for both.
 */
export function QrSetupForm({ whose, busy, onSubmit }: Props) {
  const { t } = useLingui();
  const { who, name } = whoseParts(whose);
  const legendId = useId();
  const hintId = useId();
  const choiceErrorId = useId();
  const [pin, setPin] = useState('');
  const [touched, setTouched] = useState(false);
  const [essentials, setEssentials] = useState<boolean | null>(null);
  const [asked, setAsked] = useState(false);
  const complete = isCompletePin(pin);
  const choiceMissing = asked && essentials === null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    setAsked(true);
    if (!complete || essentials === null || busy) return;
    if (await onSubmit(pin, essentials)) {
      setPin('');
      setTouched(false);
      setEssentials(null);
      setAsked(false);
    }
  };

  const option = (value: boolean, label: string, detail: string) => (
    <label className="flex min-h-11 cursor-pointer items-start gap-3 rounded-lg border border-slate-300 bg-white px-3 py-2.5 has-checked:border-brand-600 has-checked:bg-brand-50">
      <input
        type="radio"
        name={legendId}
        className="mt-0.5 size-5 shrink-0 cursor-pointer accent-brand-700"
        checked={essentials === value}
        onChange={() => setEssentials(value)}
      />
      <span className="flex flex-col">
        <span className="text-sm font-medium text-slate-900">{label}</span>
        <span className="text-sm text-slate-700">{detail}</span>
      </span>
    </label>
  );

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-5">
      <fieldset
        role="radiogroup"
        aria-labelledby={legendId}
        aria-describedby={[hintId, choiceMissing ? choiceErrorId : null].filter(Boolean).join(' ')}
        aria-required="true"
        aria-invalid={choiceMissing ? true : undefined}
        className="flex max-w-xl flex-col gap-2"
      >
        <legend id={legendId} className="text-sm font-medium text-slate-800">
          <Trans>Show the essentials without the PIN?</Trans>
        </legend>
        <p id={hintId} className="text-sm text-slate-700">
          {t`${select(who, {
            self: 'Recommended for wristbands and lock screens: whoever finds your code in an emergency sees the name, age, blood type, allergies, conditions, bleeding disorder, medication names and primary contact at once. Everything else still needs the PIN. You can change this later.',
            named: `Recommended for wristbands and lock screens: whoever finds ${name}’s code in an emergency sees the name, age, blood type, allergies, conditions, bleeding disorder, medication names and primary contact at once. Everything else still needs the PIN. You can change this later.`,
            other:
              'Recommended for wristbands and lock screens: whoever finds this member’s code in an emergency sees the name, age, blood type, allergies, conditions, bleeding disorder, medication names and primary contact at once. Everything else still needs the PIN. You can change this later.',
          })}`}
        </p>
        {option(true, t`Yes, show the essentials at once`, t`Anyone who scans sees them straight away, even before reaching you.`)}
        {option(false, t`No, show nothing until the PIN is entered`, t`Anyone who scans sees only the PIN prompt.`)}
        {choiceMissing ? (
          <p id={choiceErrorId} className="text-sm font-medium text-red-700">
            <Trans>Choose whether the essentials may show without the PIN.</Trans>
          </p>
        ) : null}
      </fieldset>
      <PinInput
        label={t`Choose a 4-digit PIN`}
        value={pin}
        onValueChange={setPin}
        onBlur={() => setTouched(pin.length > 0)}
        error={touched && !complete ? pinFormatMessage() : undefined}
        hint={t`4 digits. Avoid easy ones such as 1234 or 1111.`}
        action={
          <Button type="submit" disabled={!complete || busy}>
            {busy ? t`Setting Up...` : t`Set Up QR Code`}
          </Button>
        }
      />
    </form>
  );
}
