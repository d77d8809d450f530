// The hostile-input property (./hostile-input.ts) for its "schema" part.
import { hostileSuite } from "./hostile-input.ts";

hostileSuite("schema");
