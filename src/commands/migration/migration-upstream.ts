// Upstream's migration command as its own plugin introduces it: its place at the head of the root usage
// and the line it gives it there. Statically imported by the registry (the root help needs it
// before any command loads), so it holds only these strings.
import type { UpstreamHeader } from "../command-types.ts";

export const MIGRATION_UPSTREAM: UpstreamHeader = { upstreamRank: 2, rootUsage: "kubectl ptah migration <migration> [-o text|json]" };
