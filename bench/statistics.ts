/** The middle value (for an even count, the upper of the two middle ones); NaN for none. */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
