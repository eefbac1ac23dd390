package protocol

// The default limits of an execution; host.DefaultLimits and bootstrap's
// defaults are these.
const (
	DefaultStdoutBytes = 1 << 20  // captured stdout, and separately stderr
	DefaultResultBytes = 16 << 20 // the encoded result value
	DefaultResultDepth = 100      // nesting of the result value
	DefaultRecursion   = 1000     // the program's recursion limit
	DefaultFanout      = 64       // PLM: iterations of one loop prepared ahead
)

// What a response may carry besides its value. The guest clips the text it
// reports to these (in characters; one may take up to 6 bytes once
// escaped), so that a response always fits EnvelopeBytes beyond its value.
const (
	MessageChars      = 16 << 10  // the error message
	TracebackChars    = 32 << 10  // the program's traceback (its tail is kept)
	TransformedChars  = 128 << 10 // the program as PLM rewrote it
	NativeReportBytes = 1 << 20   // the hot-function report (dropped when longer)
	// EnvelopeBytes bounds a response beyond its value's ResultBytes.
	EnvelopeBytes = 4 << 20
	// envelopeDepth is how deep the envelope's own fields nest (the native
	// report: a list of objects).
	envelopeDepth = 2
)

// ResultLimits are the limits a result is checked against. Zero fields
// take the defaults.
type ResultLimits struct {
	ResultBytes int // the value's encoding
	ResultDepth int // the value's nesting
	StdoutBytes int // captured stdout, and separately stderr
}

// WithDefaults fills zero fields.
func (l ResultLimits) WithDefaults() ResultLimits {
	if l.ResultBytes <= 0 {
		l.ResultBytes = DefaultResultBytes
	}
	if l.ResultDepth <= 0 {
		l.ResultDepth = DefaultResultDepth
	}
	if l.StdoutBytes <= 0 {
		l.StdoutBytes = DefaultStdoutBytes
	}
	return l
}

// ResponseMax is the largest response a guest may return.
func (l ResultLimits) ResponseMax() int {
	return l.WithDefaults().ResultBytes + EnvelopeBytes
}

// ResultFrameMax is the largest result frame payload a guest may send: a
// transport reads no more (and allocates no more) than this.
func (l ResultLimits) ResultFrameMax() int {
	l = l.WithDefaults()
	return ResultHeadLen + l.ResponseMax() + 2*l.StdoutBytes
}
