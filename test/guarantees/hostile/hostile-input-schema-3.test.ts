// The hostile-input property (./hostile-input.ts) for its "schema-3" part.
import { hostileSuite } from "./hostile-input.ts";

hostileSuite("schema-3");
