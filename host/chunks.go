package host

import (
	"encoding/json"
	"time"
)

// Chunk is one piece of a streamed program as it arrived (Stream.Feed).
type Chunk struct {
	At    time.Duration // offset from the start of the stream, the time base of Response.Calls
	Bytes int
}

// maxChunks bounds the arrivals a stream keeps: a client that trickles its
// program byte by byte must not grow the trace without bound. Past it, each
// arrival is merged into the last entry (its bytes added, its time moved).
const maxChunks = 1024

// arrivals records the chunks of a stream.
type arrivals []Chunk

func (a *arrivals) add(at time.Duration, n int) {
	if len(*a) < maxChunks {
		*a = append(*a, Chunk{At: at, Bytes: n})
		return
	}
	last := &(*a)[len(*a)-1]
	last.At, last.Bytes = at, last.Bytes+n
}

type chunkJSON struct {
	AtMs  float64 `json:"at_ms"`
	Bytes int     `json:"bytes"`
}

// MarshalJSON encodes one arrival (an item of `chunks`).
func (c Chunk) MarshalJSON() ([]byte, error) {
	return json.Marshal(chunkJSON{AtMs: millis(c.At), Bytes: c.Bytes})
}

// UnmarshalJSON decodes the form Chunk.MarshalJSON writes.
func (c *Chunk) UnmarshalJSON(data []byte) error {
	var v chunkJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*c = Chunk{At: duration(v.AtMs), Bytes: v.Bytes}
	return nil
}
