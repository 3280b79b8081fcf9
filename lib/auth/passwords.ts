import 'server-only';
import bcrypt from 'bcryptjs';

/** bcrypt work factor: about 0.2–0.3 s per check on a small server. */
export const BCRYPT_COST = 12;

export function hashPassword(password: string, cost = BCRYPT_COST): Promise<string> {
  return bcrypt.hash(password, cost);
}

// A hash of a random value with the same cost, compared when the account does not exist,
// so that an unknown e-mail costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= bcrypt.hash(`dummy-${Math.random()}`, BCRYPT_COST);
  return dummyHash;
}

/** Compares against the stored hash, or against a dummy hash when there is none. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(password, await getDummyHash());
    return false;
  }
  return bcrypt.compare(password, hash);
}
