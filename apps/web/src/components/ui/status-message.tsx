import { isSuccessText } from '../../i18n/success-messages';
import { AlertMessage } from './alert-message';

/**
 * A live region for the result of a save. SPEC §5 message colours: green when the message contains
 * 'success' (in another language, when it is the translation of such a message: `isSuccessText`),
 * red otherwise. Success is announced politely (role=status); an error
 * interrupts (role=alert). The status region stays on the page so the first message is announced.
 */
export function StatusMessage({ message, className = '' }: { message: string | null | undefined; className?: string }) {
  const success = message ? isSuccessText(message) : false;
  return (
    <div className={className}>
      <div role="status" aria-live="polite">
        {message && success ? <p className="rounded-lg bg-green-50 px-3 py-2 font-medium text-green-800">{message}</p> : null}
      </div>
      {message && !success ? <AlertMessage>{message}</AlertMessage> : null}
    </div>
  );
}
