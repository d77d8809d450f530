// Upstream's plan command as its own plugin introduces it: its place at the head of the root usage
// and the line it gives it there, and its usage block, printed instead of the derived "Usage:"
// section (pinned by test/guarantees/upstream-pins.test.ts). Statically imported by the registry (the root help needs it
// before any command loads), so it holds only these strings.
import type { UpstreamHeader } from "../command-types.ts";

export const PLAN_UPSTREAM: UpstreamHeader = {
  upstreamRank: 0,
  rootUsage: "kubectl ptah plan <schema> [--current|--applied] [-o text|sql|json|yaml]",
  // -o yaml, --statements and --verify are ours.
  upstreamUsage: [
    "usage: kubectl ptah plan <schema> [--current|--applied] [-o text|sql|json|yaml] [--statements] [--verify]",
    "",
    "  --current              the plan the operator would run next (the default)",
    "  --applied              the plan the last confirmed apply ran",
    "  -o, --output FORMAT    text (header and SQL), sql, json (the stored plan document), or yaml (ours)",
    "",
    "The applied plan is the stored plan the last confirmed apply ran, exactly as it was approved;",
    "it is not a log of what each statement did.",
  ],
};
