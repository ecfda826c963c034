import { describe, expect, it } from 'vitest';
import { PERSON_COLORS, UNKNOWN_PERSON_COLOR, personColor } from './person-colors';

/** WCAG 2.1 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('person colours', () => {
  it('every colour carries white text at AA (4.5:1) and they are all different', () => {
    for (const { background } of [...PERSON_COLORS, UNKNOWN_PERSON_COLOR])
      expect(contrast(background, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(new Set(PERSON_COLORS.map((c) => c.background)).size).toBe(PERSON_COLORS.length);
  });

  it('follows the order of the people list and wraps round; someone unknown is grey', () => {
    const people = Array.from({ length: PERSON_COLORS.length + 1 }, (_, i) => ({ id: `p${i}` }));
    expect(personColor(people, 'p1')).toBe(PERSON_COLORS[1]);
    expect(personColor(people, `p${PERSON_COLORS.length}`)).toBe(PERSON_COLORS[0]);
    expect(personColor(people, 'nobody')).toBe(UNKNOWN_PERSON_COLOR);
    expect(personColor(undefined, 'p1')).toBe(UNKNOWN_PERSON_COLOR);
  });
});
