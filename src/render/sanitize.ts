// The sanitiser for the render layer: every cluster-supplied string is printed through it.
// It is defined in errors.ts (layer 0), where kube/ and cli/ may reach it too.
export { escapeJsonText, isTerminalSafe, sanitize, sanitizeMultiline } from "../errors.ts";
