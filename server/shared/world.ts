/**
 * The simulated world the sandbox stands in for, in one place: the service's deposit bank
 * account (SPEI CLABEs at STP), the stablecoins it trades besides the price feed's tokens,
 * the decimal places of fiat and token amounts, and what it needs of the chains: address
 * checks, addresses for embedded wallets and deposits, unsigned transactions to sign, and
 * signatures or hashes of confirmed transactions. Nothing is broadcast; the values have the
 * real formats so a partner's parsing code meets what production sends.
 */
import { ECDH, randomBytes, randomInt } from 'node:crypto';
import type { components } from '../../generated/types/ramp.ts';
import { makeClabe } from './clabe.ts';

/** The service's deposit account at STP: every order's CLABE is 646 180 …, each its own. */
export const depositBank = { code: '646', city: '180', name: 'STP', beneficiary: 'Ramp Example SA de CV' } as const;

/** A fresh deposit CLABE of the service (FundingInstructions of a v2 onramp, V1Order's depositClabe). */
export const newDepositClabe = () => makeClabe(depositBank.code, depositBank.city, String(randomInt(0, 100_000_000_000)).padStart(11, '0'));

/** Stablecoins the service trades besides the tokens of the price feed. */
export const stablecoins: readonly string[] = ['USDC', 'USDT'];

/** Decimal places of amounts: fiat (MXN cents) and tokens. */
export const fiatPrecision = 2;
export const tokenPrecision = 6;

/** A fresh EVM account address (20 bytes, 0x-hex). */
export const evmAddress = () => `0x${randomBytes(20).toString('hex')}`;

export type Blockchain = components['schemas']['V1Blockchain'];

const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base58(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = base58Alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

function base58Length(text: string): number | undefined {
  let n = 0n;
  for (const c of text) {
    const digit = base58Alphabet.indexOf(c);
    if (digit < 0) return undefined;
    n = n * 58n + BigInt(digit);
  }
  let length = 0;
  while (n > 0n) {
    n /= 256n;
    length++;
  }
  for (const c of text) {
    if (c !== '1') break;
    length++;
  }
  return length;
}

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): Uint8Array | undefined {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const c of text) {
    const digit = base32Alphabet.indexOf(c);
    if (digit < 0) return undefined;
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** CRC-16/XMODEM, the checksum of Stellar's StrKey. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

const stellarAccountVersion = 6 << 3; // StrKey version byte of an account id ("G…")

function stellarAddress(key: Uint8Array): string {
  const payload = Uint8Array.from([stellarAccountVersion, ...key]);
  const crc = crc16(payload);
  return base32(Uint8Array.from([...payload, crc & 0xff, crc >> 8]));
}

/** Whether an address is a valid account address on the chain (Solana: 32 bytes of base58; Stellar: a checksummed G… StrKey). */
export function fitsChain(address: string, blockchain: Blockchain): boolean {
  if (blockchain === 'solana') return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address) && base58Length(address) === 32;
  if (!/^G[A-Z2-7]{55}$/.test(address)) return false;
  const bytes = unbase32(address);
  if (!bytes || bytes.length !== 35 || bytes[0] !== stellarAccountVersion) return false;
  const crc = crc16(bytes.subarray(0, 33));
  return bytes[33] === (crc & 0xff) && bytes[34] === crc >> 8;
}

/** The chain an address given without one belongs to, or undefined when it fits neither. */
export function chainOf(address: string): Blockchain | undefined {
  if (fitsChain(address, 'stellar')) return 'stellar';
  if (fitsChain(address, 'solana')) return 'solana';
  return undefined;
}

/** A fresh address for an embedded wallet. */
export function newAddress(blockchain: Blockchain): string {
  return blockchain === 'solana' ? base58(randomBytes(32)) : stellarAddress(randomBytes(32));
}

/** A serialized unsigned transaction, base64: a Solana transaction with its empty signature slot, or a Stellar XDR envelope. */
export function newUnsignedTransaction(blockchain: Blockchain): string {
  const body = randomBytes(160);
  const head = blockchain === 'solana' ? Buffer.concat([Buffer.from([1]), Buffer.alloc(64)]) : Buffer.from([0, 0, 0, 2]);
  return Buffer.concat([head, body]).toString('base64');
}

/** The id of a confirmed transaction: a base58 signature on Solana, a hex hash on Stellar. */
export function newTransactionId(blockchain: Blockchain): string {
  return blockchain === 'solana' ? base58(randomBytes(64)) : randomBytes(32).toString('hex');
}

/** Whether a SEC 1 hex key is a point of P-256 (the pattern only checks its shape). */
export function isP256PublicKey(hex: string): boolean {
  try {
    ECDH.convertKey(hex, 'prime256v1', 'hex', 'hex', 'uncompressed');
    return true;
  } catch {
    return false;
  }
}
