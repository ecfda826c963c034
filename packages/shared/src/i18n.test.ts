import { describe, expect, it } from 'vitest';
import { acceptLanguageTags, languageDirection, languageOfTag, pickLanguage, unitsForTags } from './i18n';

describe('languages (issue 35)', () => {
  it('maps tags to the languages Kinchart speaks', () => {
    expect(languageOfTag('es-MX')).toBe('es');
    expect(languageOfTag('pt-PT')).toBe('pt-BR');
    expect(languageOfTag('zh-CN')).toBe('zh-Hans');
    expect(languageOfTag('zh-Hans-SG')).toBe('zh-Hans');
    expect(languageOfTag('zh')).toBe('zh-Hans');
    expect(languageOfTag('zh-TW')).toBeUndefined();
    expect(languageOfTag('zh-Hant')).toBeUndefined();
    expect(languageOfTag('sv-SE')).toBeUndefined();
    expect(languageOfTag('AR-eg')).toBe('ar');
  });

  it('picks the first language spoken, else English', () => {
    expect(pickLanguage(['sv', 'zh-TW', 'uk-UA', 'en'])).toBe('uk');
    expect(pickLanguage([])).toBe('en');
    expect(pickLanguage(['tlh'])).toBe('en');
  });

  it('orders Accept-Language by weight, keeps equal weights in order, drops q=0 and *', () => {
    expect(acceptLanguageTags('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual(['fr-CH', 'fr', 'en', 'de']);
    expect(acceptLanguageTags('en;q=0.1, pl, ar;q=0')).toEqual(['pl', 'en']);
    expect(acceptLanguageTags(undefined)).toEqual([]);
    expect(acceptLanguageTags(',,;q=,')).toEqual([]);
    // Linear in the header's length: a long hostile header is cut, not backtracked over.
    expect(acceptLanguageTags('a;'.repeat(100_000)).length).toBeLessThanOrEqual(500);
  });

  it('reads Arabic right to left', () => {
    expect(languageDirection('ar')).toBe('rtl');
    expect(languageDirection('ja')).toBe('ltr');
  });

  it('gives the US and English without a region feet and pounds, the rest of the world metric', () => {
    expect(unitsForTags(['en-US'])).toBe('imperial');
    expect(unitsForTags(['en'])).toBe('imperial');
    expect(unitsForTags(['en-GB'])).toBe('metric');
    expect(unitsForTags(['es-ES', 'en-US'])).toBe('metric');
    expect(unitsForTags(['zh-Hans-CN'])).toBe('metric');
    expect(unitsForTags([])).toBe('imperial');
  });
});
