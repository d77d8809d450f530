// The hostile-input property (./hostile-input.ts) for its "schema-2" part.
import { hostileSuite } from "./hostile-input.ts";

hostileSuite("schema-2");
