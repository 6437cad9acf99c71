/**
 * A boolean query flag (`?requirements=true`). The validator coerces it to a boolean; with
 * request validation off (RAMP_VALIDATE_REQUESTS=false, the benchmark) it stays the text.
 */
export const asked = (value: unknown) => value === true || value === 'true';
