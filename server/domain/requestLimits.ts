/**
 * Limits on the shape of a request body that the contract does not need to state. The body
 * is already bounded in bytes (256 kB), but checking a long array against the contract costs
 * more than linear time (every item's errors are gathered), so one 96 kB body of empty
 * objects could hold the process for minutes. The longest list the contract takes has 20 items.
 */
export const maxArrayItems = 100;

/** The JSON Pointer of the first array longer than `limit` in a parsed body, or undefined. */
export function oversizedArray(body: unknown, limit = maxArrayItems): string | undefined {
  // Iterative, so a deeply nested body cannot exhaust the stack here either.
  const stack: [unknown, string][] = [[body, '']];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop()!;
    if (Array.isArray(value)) {
      if (value.length > limit) return pointer || '/';
      value.forEach((item, i) => stack.push([item, `${pointer}/${i}`]));
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) stack.push([item, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`]);
    }
  }
  return undefined;
}
