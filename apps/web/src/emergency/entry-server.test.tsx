// Rendered here with React (the web test project's); the build renders the same tree with Preact,
// which the Playwright journeys load.
import { describe, expect, it } from 'vitest';
import type { EmergencyEssentials } from '../features/emergency/api/get-emergency-info';
import { renderEmergencyPage } from './entry-server';
import { PAGE_STATE_ID, shareIdOfPath, type EmergencyPageState } from './page-state';

const SHARE_ID = 'a'.repeat(43);

const essentials: EmergencyEssentials = {
  name: 'Ana </script><script>alert(1)</script>',
  age: 44,
  is_pet: false,
  species: null,
  blood_type: 'O-',
  allergies: 'Penicillin',
  allergy_entries: [],
  conditions: null,
  bleeding_disorder: null,
  medications: ['Warfarin'],
  primary_contact: { name: 'Sam', phone_number: '+1 555 0100' },
  updated_at: '2026-03-04T05:06:07.000Z',
};

function stateOf(body: string): EmergencyPageState {
  const open = `<script type="application/json" id="${PAGE_STATE_ID}">`;
  const from = body.indexOf(open) + open.length;
  return JSON.parse(body.slice(from, body.indexOf('</script>', from))) as EmergencyPageState;
}

describe('the emergency page’s server render', () => {
  it('puts the PIN prompt and an opted-in code’s essentials into the first HTML, in the browser’s language', () => {
    const page = renderEmergencyPage({
      shareId: SHARE_ID,
      languages: ['es-ES', 'en'],
      lookup: { kind: 'self', answer: { body: { requirePin: true, essentials }, pinStatus: 'ok' } },
    });
    expect(page.lang).toBe('es');
    expect(page.title).toBe('Información de emergencia · Kinchart');
    expect(page.body.startsWith('<div id="root"><main id="main-content"')).toBe(true);
    expect(page.body).toContain('Warfarin');
    expect(page.body).toContain('O-');
    expect(page.body).toContain('href="tel:+15550100"');
    // The PIN prompt is there before any script runs.
    expect(page.body.toLowerCase()).toContain('inputmode="numeric"');
    expect(page.body).toContain('Ver información médica');
    expect(page.body).toContain('Introduzca el PIN');
  });

  it('escapes the user’s text in the markup and in the state script, which hands the same lookup back', () => {
    const lookup = { kind: 'self' as const, answer: { body: { requirePin: true as const, essentials }, pinStatus: 'ok' as const } };
    const page = renderEmergencyPage({ shareId: SHARE_ID, languages: [], lookup });
    expect(page.body.match(/<script/g)).toHaveLength(1);
    expect(page.body).toContain('Ana &lt;/script');
    expect(page.body).not.toContain('<script>alert');
    expect(stateOf(page.body)).toEqual({ locale: 'en', lookup });
  });

  it('puts the allergy entries into the first HTML, high criticality first with its reaction (issue 34)', () => {
    const withEntries: EmergencyEssentials = {
      ...essentials,
      allergies: 'Latex\nPenicillin',
      allergy_entries: [
        { substance: 'Latex', reactions: [], severity: null, criticality: 'low' },
        { substance: 'Penicillin', reactions: ['Anaphylaxis'], severity: null, criticality: 'high' },
      ],
    };
    const page = renderEmergencyPage({
      shareId: SHARE_ID,
      languages: ['fr'],
      lookup: { kind: 'self', answer: { body: { requirePin: true, essentials: withEntries }, pinStatus: 'ok' } },
    });
    const high = page.body.indexOf('Penicillin — Anaphylaxis (criticité élevée)');
    expect(high).toBeGreaterThan(0);
    expect(page.body.indexOf('>Latex<')).toBeGreaterThan(high);
  });

  it('renders "QR code not found or inactive" for an unknown code, and an empty root when the server has no lookup', () => {
    expect(renderEmergencyPage({ shareId: SHARE_ID, languages: ['en-GB'], lookup: null }).body).toContain('QR code not found or inactive');
    const none = renderEmergencyPage({ shareId: SHARE_ID, languages: ['de'], lookup: undefined });
    expect(none).toEqual({ lang: 'de', dir: 'ltr', title: 'Notfallinformationen · Kinchart', body: '<div id="root"></div>' });
  });

  it('speaks all 13 languages: Arabic comes mirrored (dir=rtl) in the first HTML, Japanese and Polish from their browsers', () => {
    const lookup = { kind: 'self' as const, answer: { body: { requirePin: true as const, essentials }, pinStatus: 'ok' as const } };
    const arabic = renderEmergencyPage({ shareId: SHARE_ID, languages: ['ar-EG', 'en'], lookup });
    expect(arabic.lang).toBe('ar');
    expect(arabic.dir).toBe('rtl');
    expect(arabic.title).toBe('معلومات الطوارئ · Kinchart');
    expect(arabic.body).toContain('dir="rtl"');
    expect(arabic.body).toContain('الوصول إلى المعلومات الطبية');
    expect(stateOf(arabic.body).locale).toBe('ar');
    expect(renderEmergencyPage({ shareId: SHARE_ID, languages: ['ja-JP'], lookup }).body).toContain('医療情報へのアクセス');
    expect(renderEmergencyPage({ shareId: SHARE_ID, languages: ['pl'], lookup: null }).body).toContain('Nie znaleziono kodu QR');
    expect(renderEmergencyPage({ shareId: SHARE_ID, languages: ['pt-PT'], lookup: undefined }).lang).toBe('pt-BR');
  });

  it('reads the share id from either page path', () => {
    expect(shareIdOfPath(`/emergency/${SHARE_ID}`)).toBe(SHARE_ID);
    expect(shareIdOfPath(`/family/emergency/${SHARE_ID}/`)).toBe(SHARE_ID);
    expect(shareIdOfPath('/emergency/%E0%A4%A')).toBe('%E0%A4%A');
  });
});
