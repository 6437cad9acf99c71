/** The chain formats of v1 wallets and transactions (server/shared/world.ts). */
import { describe, expect, it } from 'vitest';
import { base58, chainOf, fitsChain, isP256PublicKey, newAddress, newTransactionId, newUnsignedTransaction } from '../../../server/shared/world.ts';

describe('v1 chain formats', () => {
  it('encode base58 like Bitcoin and Solana, leading zero bytes as 1', () => {
    expect(base58(Buffer.from('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U');
    expect(base58(Buffer.from([0, 0, 1]))).toBe('112');
  });

  it('accept real addresses on their chain only, and a Stellar key only with its checksum', () => {
    const stellar = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7';
    const solana = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
    expect(fitsChain(stellar, 'stellar')).toBe(true);
    expect(fitsChain(solana, 'solana')).toBe(true);
    expect(fitsChain(stellar, 'solana')).toBe(false);
    expect(fitsChain(solana, 'stellar')).toBe(false);
    expect(fitsChain(`${stellar.slice(0, -1)}6`, 'stellar')).toBe(false);
    // 31 bytes of base58 is not a Solana public key.
    expect(fitsChain(base58(Buffer.alloc(31, 7)), 'solana')).toBe(false);
    expect(chainOf(stellar)).toBe('stellar');
    expect(chainOf(solana)).toBe('solana');
    expect(chainOf('not an address')).toBeUndefined();
  });

  it.each(['solana', 'stellar'] as const)('make fresh %s addresses and transactions in the real formats', (chain) => {
    const a = newAddress(chain);
    expect(fitsChain(a, chain)).toBe(true);
    expect(newAddress(chain)).not.toBe(a);
    const tx = Buffer.from(newUnsignedTransaction(chain), 'base64');
    if (chain === 'solana') expect([...tx.subarray(0, 65)]).toEqual([1, ...Array(64).fill(0)]);
    else expect([...tx.subarray(0, 4)]).toEqual([0, 0, 0, 2]);
    expect(newTransactionId(chain)).toMatch(chain === 'solana' ? /^[1-9A-HJ-NP-Za-km-z]{80,88}$/ : /^[0-9a-f]{64}$/);
  });

  it('tell a P-256 point from a string of the right shape', () => {
    expect(isP256PublicKey('03240c7d1a0970765cfa457983b0b4f92baa35d4e758f320591092b9ecbe9c84c8')).toBe(true);
    expect(isP256PublicKey(`04${'11'.repeat(64)}`)).toBe(false);
  });
});
