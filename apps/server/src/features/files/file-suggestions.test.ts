import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold, suggestionsFrom } from './file-suggestions';

const TODAY = '2026-11-27';
const suggest = (text: string, providers: string[] = []) =>
  suggestionsFrom(
    [text],
    providers.map((provider_name) => ({ provider_name })),
    TODAY,
  );
const dateOf = (text: string) => suggest(text).record_date;

describe('the visit date a file suggests', () => {
  it('reads ISO, numeric and written-out dates in English, German, Spanish and French', () => {
    expect(dateOf('Report 2026-03-12')).toBe('2026-03-12');
    expect(dateOf('Seen on 3 March 2026')).toBe('2026-03-03');
    expect(dateOf('Seen on March 3, 2026')).toBe('2026-03-03');
    expect(dateOf('Datum: 12. März 2026')).toBe('2026-03-12');
    expect(dateOf('Fecha: 12 de marzo de 2026')).toBe('2026-03-12');
    expect(dateOf('Paris, le 12 mars 2026')).toBe('2026-03-12');
    expect(dateOf('Paris, le 1er avril 2026')).toBe('2026-04-01');
    expect(dateOf('Datum: 12.03.2026')).toBe('2026-03-12');
  });

  it('reads 12/03/2026 day-first or month-first from the rest of the text', () => {
    // Another date that reads one way only decides.
    expect(dateOf('Fecha: 12/03/2026\nImpreso 25/03/2026')).toBe('2026-03-12');
    expect(dateOf('Date: 10/03/2026\nPrinted 03/25/2026')).toBe('2026-10-03');
    // Else an English text is month-first, any other day-first.
    expect(dateOf('Patient: Ana\nDate of service: 04/05/2026')).toBe('2026-04-05');
    expect(dateOf('Fecha: 04/05/2026')).toBe('2026-05-04');
  });

  it('prefers a labelled date and never suggests a birth date or a date after today', () => {
    expect(dateOf('Printed 2026-01-02\nDate of service: 2026-02-03')).toBe('2026-02-03');
    expect(dateOf('Printed 2026-01-02\nCollected 2026-02-03\nDate: 2026-02-05')).toBe('2026-02-03');
    expect(dateOf('DOB: 1980-01-02')).toBeNull();
    expect(dateOf('D.O.B. 1980-01-02 Date 2026-05-06')).toBe('2026-05-06');
    expect(dateOf('Date of birth: 02/01/1980\nVisit 2026-05-06')).toBe('2026-05-06');
    expect(dateOf('Geburtsdatum: 02.01.1980')).toBeNull();
    expect(dateOf('Fecha de nacimiento: 2 de enero de 1980\nFecha: 3 de marzo de 2026')).toBe('2026-03-03');
    expect(dateOf('Date of birth:\n02/01/1980')).toBeNull();
    expect(dateOf('Next appointment 2027-01-10')).toBeNull();
    expect(dateOf('Next appointment 2027-01-10, seen 2026-11-27')).toBe('2026-11-27');
  });

  it('refuses dates that do not exist', () => {
    expect(dateOf('2026-02-30')).toBeNull();
    expect(dateOf('31/04/2026')).toBeNull();
    expect(dateOf('32 March 2026')).toBeNull();
    expect(dateOf('Room 12/2026')).toBeNull();
  });
});

describe('the provider a file suggests', () => {
  it("names one of the person's providers found in the text, whatever its case and accents", () => {
    expect(suggest('Seen by DR. JOSE NUNEZ in clinic', ['Dr. José Núñez', 'Dr. Ana Ruiz']).provider_name).toBe('Dr. José Núñez');
    expect(suggest('Signed: Ana Ruiz', ['Dr. José Núñez', 'Dr. Ana Ruiz']).provider_name).toBe('Dr. Ana Ruiz');
    // A provider's name must stand as whole words.
    expect(suggest('Leeds General', ['Lee']).provider_name).toBeNull();
  });

  it('else takes the name after a label or a title', () => {
    expect(suggest('Provider: Ana Ruiz, MD').provider_name).toBe('Ana Ruiz');
    expect(suggest('Physician: Dr. Mary-Jane O’Neil').provider_name).toBe('Dr. Mary-Jane O’Neil');
    expect(suggest('Arzt: Dr. med. Hans Meier').provider_name).toBe('Dr. med. Hans Meier');
    expect(suggest('Reviewed by Dr. Ana de la Cruz today').provider_name).toBe('Dr. Ana de la Cruz');
    expect(suggest('Atendido por Dra. Lucía Pérez').provider_name).toBe('Dra. Lucía Pérez');
    expect(suggest('Nothing here, drive safely').provider_name).toBeNull();
  });
});

describe('the reason a file suggests', () => {
  it('takes one trimmed line after a reason or diagnosis label, in four languages', () => {
    expect(suggest('Reason for visit:   Annual check-up  \nNext line').visit_reason).toBe('Annual check-up');
    expect(suggest('Motivo de consulta: Dolor de garganta').visit_reason).toBe('Dolor de garganta');
    expect(suggest('Motif : Fièvre persistante').visit_reason).toBe('Fièvre persistante');
    expect(suggest('Grund: Überempfindlichkeit gegen Penicillin').visit_reason).toBe('Überempfindlichkeit gegen Penicillin');
    expect(suggest('Diagnosis:\nIron deficiency anaemia').visit_reason).toBe('Iron deficiency anaemia');
    // A reason label wins over a diagnosis, wherever each is.
    expect(suggest('Diagnosis: Asthma\nReason: Cough').visit_reason).toBe('Cough');
  });

  it('is at most 200 characters and null when there is none', () => {
    const reason = suggest(`Reason: ${'word '.repeat(100)}`).visit_reason!;
    expect(reason.length).toBeLessThanOrEqual(200);
    expect(reason.startsWith('word word')).toBe(true);
    expect(suggest('Reason: 12345').visit_reason).toBeNull();
    expect(suggest('No labels at all').visit_reason).toBeNull();
  });
});

describe('reading hostile text', () => {
  it('keeps offsets when folding', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => fold(s).length === s.length));
  });

  it('answers any text without throwing, each field null or a short string', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 400 }), { maxLength: 4 }), (pages) => {
        const s = suggestionsFrom(pages, [{ provider_name: 'Dr. Ana Ruiz' }], TODAY);
        for (const v of [s.record_date, s.provider_name, s.visit_reason]) expect(v === null || v.length <= 200).toBe(true);
        if (s.record_date) expect(s.record_date <= TODAY).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('reads the longest text it reads, however repetitive, in well under a second or two', () => {
    // Anything quadratic on 200,000 characters would take minutes, not milliseconds.
    const pieces = ['Dr ', 'dr. ', 'Reason', ': ', '12/', '03/', '2026 ', 'de ', 'marzo ', 'DOB ', '\n', 'Date ', 'A', 'é', 'Ana ', 'la '];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 8 }), (unit) => {
        const text = unit.join('').repeat(Math.ceil(200_000 / unit.join('').length));
        const start = performance.now();
        suggestionsFrom([text], [{ provider_name: 'Ana' }], TODAY);
        expect(performance.now() - start).toBeLessThan(2_000);
      }),
      { numRuns: 15 },
    );
  });
});
