/**
 * CLABE, the 18-digit Mexican interbank account number: 3 digits of bank, 3 of city,
 * 11 of account and a check digit over the first 17 with weights 3, 7, 1.
 */
const weights = [3, 7, 1];

export function clabeCheckDigit(first17: string): number {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * weights[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10;
}

/** Why a CLABE is not valid, or undefined when it is. */
export function clabeProblem(clabe: string): string | undefined {
  if (!/^[0-9]{18}$/.test(clabe)) return 'A CLABE is exactly 18 digits.';
  if (clabeCheckDigit(clabe.slice(0, 17)) !== Number(clabe[17])) return 'The CLABE check digit is wrong.';
  return undefined;
}

/** A valid CLABE for a bank code and an account number (sandbox deposit CLABEs). */
export function makeClabe(bank: string, city: string, account: string): string {
  const first17 = `${bank.padStart(3, '0')}${city.padStart(3, '0')}${account.padStart(11, '0')}`.slice(0, 17);
  return first17 + String(clabeCheckDigit(first17));
}
