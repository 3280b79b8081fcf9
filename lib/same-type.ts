/**
 * For a type kept in two places on purpose (the database schema imports nothing of the domain):
 * `Assert<SameType<A, B>>` compiles only while A and B are the same type.
 */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type Assert<T extends true> = T;
