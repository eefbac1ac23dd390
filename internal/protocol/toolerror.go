package protocol

// ToolErrorPermission is the type of a call the host refused on behalf of
// the embedding application (a call hook's denial): one of ToolExceptions.
const ToolErrorPermission = "PermissionError"
