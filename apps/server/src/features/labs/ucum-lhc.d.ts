// The parts of @lhncbc/ucum-lhc (which ships no types) that the lab values use.
declare module '@lhncbc/ucum-lhc' {
  interface UcumLhcUtils {
    validateUnitString(unit: string): { status: 'valid' | 'invalid' | 'error'; ucumCode: string | null };
    convertUnitTo(
      fromUnit: string,
      fromValue: number,
      toUnit: string,
      suggest?: boolean,
      molecularWeight?: number | null,
    ): { status: 'succeeded' | 'failed' | 'error'; toVal: number | null };
  }
  const ucum: { UcumLhcUtils: { getInstance(): UcumLhcUtils } };
  export default ucum;
}
