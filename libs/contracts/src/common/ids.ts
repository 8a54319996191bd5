const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else can name no row (and must never reach a uuid column: that is a 500). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
