// Values kept by resource and found through the resource's item number (`Resource.index`, one per
// item of the input): an Int32Array of places, and the resources and values in lists in the order
// added. A Map of 10k resources (and the tables it grew from) outlived fan-in's last mark-compact
// to the peak: the wave plan's nodes ≈0.7 MB, the checksums by resource ≈1 MB. A resource whose
// number another already has (none the reader made) is kept in a Map.
import type { Resource } from './resource.js';

export class ItemTable<V> {
  /** Each item number's place in `owners` and `values`, plus one; 0: none. */
  private places = new Int32Array(1024);
  /** The resources, first added first. */
  readonly owners: Resource[] = [];
  /** Each resource's value, at its place in `owners`. */
  readonly values: V[] = [];
  private readonly others = new Map<Resource, number>();

  /** The resource's place in `owners` and `values`, or -1. */
  placeOf(resource: Resource): number {
    const { index } = resource;
    if (index >= 0 && index < this.places.length) {
      const slot = this.places[index];
      // A free number: no resource of it added, so none in `others` either.
      if (slot === 0) return -1;
      if (slot !== undefined && this.owners[slot - 1] === resource) return slot - 1;
    }
    return this.others.size === 0 ? -1 : (this.others.get(resource) ?? -1);
  }

  /** Adds `resource`, which the table does not hold, with its value; its place. */
  add(resource: Resource, value: V): number {
    const place = this.owners.length;
    this.owners.push(resource);
    this.values.push(value);
    const { index } = resource;
    if (!Number.isInteger(index) || index < 0) {
      this.others.set(resource, place);
      return place;
    }
    if (index >= this.places.length) {
      let size = this.places.length * 2;
      while (index >= size) size *= 2;
      const larger = new Int32Array(size);
      larger.set(this.places);
      this.places = larger;
    }
    if (this.places[index] === 0) this.places[index] = place + 1;
    else this.others.set(resource, place);
    return place;
  }

  get size(): number {
    return this.owners.length;
  }
}
