import ucumLhc from '@lhncbc/ucum-lhc';

const utils = ucumLhc.UcumLhcUtils.getInstance();

/** The UCUM code for a unit as a report writes it, or null when UCUM does not know it. */
export function ucumCode(unit: string): string | null {
  if (unit.trim() === '') return null;
  const result = utils.validateUnitString(unit);
  return result.status === 'valid' ? result.ucumCode : null;
}

/** A value in another unit of the same quantity; mass ↔ moles only with the molar mass. Null where UCUM refuses. */
export function convertUnit(value: number, from: string, to: string, molarMass?: number): number | null {
  const result = utils.convertUnitTo(from, value, to, false, molarMass ?? null);
  return result.status === 'succeeded' && result.toVal !== null ? result.toVal : null;
}
