import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { DocumentTitle } from '../../../components/ui/page-header';
import { SUPPORT_EMAIL } from '../../../lib/site';
import { MarketingHero, MarketingSection } from '../components/marketing-section';

// SPEC §2: /faq shows six questions.
const questions: { question: MessageDescriptor; answer: MessageDescriptor }[] = [
  {
    question: msg`Is my health information secure?`,
    answer: msg`Yes. Every file is encrypted before it is stored, your session ends automatically after a period of inactivity, and only you can see your records. Emergency information can only be opened with both the QR code and its 4-digit PIN, repeated wrong PINs lock the code, and you are notified whenever it is viewed.`,
  },
  {
    question: msg`What happens when someone scans my emergency QR code?`,
    answer: msg`They are asked for the PIN. With the right PIN they see a read-only summary: priority information such as allergies and bleeding disorders, your conditions, current medications, emergency contacts and medical directives. They never see your files, appointments or account. You can switch the code off or change its PIN at any time.`,
  },
  {
    question: msg`Can I manage records for my family and my pets?`,
    answer: msg`Yes. Add family members — a partner, children, parents, siblings — and pets, each with their own profile, medications, emergency contacts and healthcare providers, and each with their own emergency QR code.`,
  },
  {
    question: msg`Which files can I upload?`,
    answer: msg`PDF, JPG, PNG, DOCX and other common formats, such as other image types, spreadsheets and plain text. For each file you can note the visit date, healthcare provider, location and reason for the visit.`,
  },
  {
    question: msg`Can I share records with my doctor?`,
    answer: msg`Yes. Select the files you want to share and Kinchart gives you a link and a QR code to open them. You can also keep your healthcare providers and appointments in Kinchart so everything for a visit is in one place.`,
  },
  {
    question: msg`How do I delete my account?`,
    answer: msg`Go to Settings, then Account Settings, and use Delete Account in the Danger Zone. After you confirm with your password, your account, profiles, files and emergency codes are deleted.`,
  },
];

/**
 * One question as a WAI-ARIA APG accordion item: the question is a heading (so it is in the
 * page outline) holding a button that shows or hides the answer.
 */
function FaqItem({ question, answer }: { question: string; answer: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="px-6 py-2">
      <h2 className="text-lg font-semibold text-slate-900">
        <button
          type="button"
          id={`${id}-question`}
          aria-expanded={open}
          aria-controls={`${id}-answer`}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full items-center justify-between gap-4 rounded-lg py-4 text-start"
        >
          {question}
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className={`size-5 shrink-0 text-slate-700 transition-transform ${open ? 'rotate-180' : ''}`}
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M6 9l6 6 6-6" />
          </svg>
        </button>
      </h2>
      <div id={`${id}-answer`} hidden={!open}>
        <p className="pb-4 text-slate-700">{answer}</p>
      </div>
    </div>
  );
}

export function FaqPage() {
  const { t } = useLingui();
  return (
    <>
      <DocumentTitle title={t`FAQ`} />
      <MarketingHero
        title={t`Frequently asked questions`}
        lead={t`Answers about privacy, emergency access, family profiles and your records.`}
      />
      <MarketingSection>
        <div className="mx-auto max-w-3xl divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200">
          {questions.map((item, index) => (
            <FaqItem key={index} question={t(item.question)} answer={t(item.answer)} />
          ))}
        </div>
        <p className="mx-auto mt-10 max-w-3xl text-center text-slate-700">
          <Trans>
            Still have a question? Email{' '}
            <a href={`mailto:${SUPPORT_EMAIL}`} className="font-semibold text-brand-700 underline underline-offset-4">
              {SUPPORT_EMAIL}
            </a>{' '}
            or{' '}
            <Link to="/signup" className="font-semibold text-brand-700 underline underline-offset-4">
              create an account
            </Link>{' '}
            and try it for yourself.
          </Trans>
        </p>
      </MarketingSection>
    </>
  );
}
