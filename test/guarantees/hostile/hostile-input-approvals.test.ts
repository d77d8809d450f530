// The hostile-input property (./hostile-input.ts) for its "approvals" part.
import { hostileSuite } from "./hostile-input.ts";

hostileSuite("approvals");
