/** An integer query parameter within bounds, else the default (the dashboard clamps; the API refuses). */
export function intParam(value: string | undefined, min: number, max: number, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}
