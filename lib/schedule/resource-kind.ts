/** What kind of room a resource is, for "next free slot" filters: washing, drying, or neither. */
export const RESOURCE_KINDS = ['laundry', 'drying', 'other'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

// Drying words first: "Torkrum i tvättstugan" is a drying room.
const DRYING = /(tork|\bdry|mangel|mangling)/i;
const LAUNDRY = /(tvätt|tvatt|laund|wash|vask|tvaett|machine|maskin)/i;

/**
 * The kind guessed from a resource's name and description (either may be missing upstream); an
 * admin's correction (resource_kinds) wins over it. The name decides before the description.
 */
export function guessResourceKind(name: string | null | undefined, description?: string | null): ResourceKind {
  for (const text of [name ?? '', description ?? '']) {
    if (DRYING.test(text)) return 'drying';
    if (LAUNDRY.test(text)) return 'laundry';
  }
  return 'other';
}

export function isResourceKind(value: unknown): value is ResourceKind {
  return typeof value === 'string' && (RESOURCE_KINDS as readonly string[]).includes(value);
}
