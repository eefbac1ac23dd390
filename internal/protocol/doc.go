// Package protocol is the one definition of everything that crosses the
// guest boundary: the frames of the sandbox's two channels and their
// layouts, the crossings a guest makes into the host (call, prepare,
// resolve, native), the interrupt reasons, the request envelopes the guest
// reads (execute, prefix begin/feed/abort) and the response envelope it
// returns, with the outcomes a guest may claim in it.
//
// The guest's halves mirror it: guest/protocol.py (Python) and
// guest-c/spine_protocol.h (C). Neither is generated; TestMirrorsMatch reads
// both and fails when a constant drifts from its definition here.
//
// Nothing here trusts the guest: ReadFrame refuses an oversized frame before
// it allocates it, ParseResult checks a result frame's lengths, and
// CheckResponse checks a response against the execution's limits before
// anything decodes it (see validate.go).
package protocol
