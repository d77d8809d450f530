// The hostile-input property (./hostile-input.ts) for its "plans" part.
import { hostileSuite } from "./hostile-input.ts";

hostileSuite("plans");
