/** Booleans are stored as 0/1 integers on both dialects (docs/decisions/0002). */
export const toFlag = (value: boolean | null | undefined): number => (value ? 1 : 0);
export const fromFlag = (value: number | boolean | null | undefined): boolean => value === 1 || value === true;
