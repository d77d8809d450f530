// How many cases each property runs, and a tally printed once per file. PTAH_PROPERTY_RUNS
// raises (or lowers) every property's count, e.g. for a long soak in CI.
import fc from "fast-check";

export function runs(defaultRuns: number): number {
  const override = Number.parseInt(process.env.PTAH_PROPERTY_RUNS ?? "", 10);
  return Number.isFinite(override) && override > 0 ? override : defaultRuns;
}

export class Tally {
  private readonly counts = new Map<string, number>();
  readonly area: string;
  constructor(area: string) {
    this.area = area;
  }

  /** fc.assert with the given number of runs, counted under `name`. */
  check<Ts extends [unknown, ...unknown[]]>(name: string, property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>, numRuns: number): void | Promise<void> {
    this.counts.set(name, (this.counts.get(name) ?? 0) + numRuns);
    return fc.assert(property as fc.IProperty<Ts>, { numRuns });
  }

  summary(): string {
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    return `properties (${this.area}): ${this.counts.size} properties, ${total} generated cases`;
  }
}
