package protocol

// A tool error response ({"error": message, "type": name}) may name the
// Python exception the program sees at the call site. The guest raises the
// builtin of that name only when it is one of ToolErrorTypes, and
// RuntimeError for any other name or none: a response can never make the
// guest raise an exception a program does not expect from a tool call
// (SystemExit, KeyboardInterrupt, the host's own Interrupt).
var ToolErrorTypes = []string{"ValueError", "KeyError", "PermissionError", "TimeoutError", "LookupError", "RuntimeError"}

// ToolErrorPermission is the type of a call the host refused on behalf of
// the embedding application (a call hook's denial).
const ToolErrorPermission = "PermissionError"
