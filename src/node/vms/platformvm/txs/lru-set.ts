/** A set that forgets its oldest members beyond a size limit. */
export class LruSet {
  private readonly items = new Set<string>();

  constructor(private readonly limit: number) {}

  has(key: string): boolean {
    return this.items.has(key);
  }

  add(key: string): void {
    this.items.delete(key);
    this.items.add(key);
    if (this.items.size > this.limit) this.items.delete(this.items.values().next().value!);
  }
}
