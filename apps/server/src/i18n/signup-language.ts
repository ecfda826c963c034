import { acceptLanguageTags, languageOfTag, pickLanguage, unitsForTags, type Language, type UnitSystem } from '@kinchart/shared/i18n';

/**
 * A new account's language and units from its sign-up request's Accept-Language (issue 35, DESIGN
 * §15): the first language Kinchart speaks, or null when it speaks none of them (the web app then
 * sets the browser's, as it does for the time zone); units by the first tag's region.
 */
export function signupLanguage(acceptLanguage: string | undefined): { language: Language | null; units: UnitSystem } {
  const tags = acceptLanguageTags(acceptLanguage);
  return {
    language: tags.some((tag) => languageOfTag(tag) !== undefined) ? pickLanguage(tags) : null,
    units: unitsForTags(tags),
  };
}
