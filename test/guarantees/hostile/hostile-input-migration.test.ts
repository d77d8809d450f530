// The hostile-input property (./hostile-input.ts) for its "migration" part.
import { hostileSuite } from "./hostile-input.ts";

hostileSuite("migration");
