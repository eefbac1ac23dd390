package wire

import "github.com/spine-sandbox/spine/internal/protocol"

// The frames of both channels are defined, with their layouts, by
// internal/protocol (frame.go); these short names are for this package's
// code, which reads kinds as bytes.
const (
	kModule      = byte(protocol.KindModule)
	kCode        = byte(protocol.KindCode)
	kCompiled    = byte(protocol.KindCompiled)
	kNativeSetup = byte(protocol.KindNativeSetup)
	kWarm        = byte(protocol.KindWarm)
	kInit        = byte(protocol.KindInit)
	kHello       = byte(protocol.KindHello)
	kError       = byte(protocol.KindError)
	kFork        = byte(protocol.KindFork)
	kChild       = byte(protocol.KindChild)
	kExit        = byte(protocol.KindExit)
	kGo          = byte(protocol.KindGo)
	kReady       = byte(protocol.KindReady)
	kExecute     = byte(protocol.KindExecute)
	kEntry       = byte(protocol.KindEntry)
	kDone        = byte(protocol.KindDone)
	kResult      = byte(protocol.KindResult)
	kFailed      = byte(protocol.KindFailed)
)

const headerLen = protocol.HeaderLen

// errBreach marks a frame the child had no right to send.
var errBreach = protocol.ErrBreach

// frame encodes one frame from parts.
func frame(kind byte, parts ...[]byte) []byte { return protocol.Frame(protocol.Kind(kind), parts...) }
