package host

import (
	_ "embed"
	"encoding/json"
	"math"
	"time"
)

// The JSON form of a Response is the stable contract `spine run --json`
// prints, described by response.schema.json beside this file: snake_case
// names, durations in milliseconds (float, microsecond precision), error
// fields null on success, and `value`, `calls` and `emitted` always present.

// ResponseSchema is the JSON Schema (draft 2020-12) of a Response's JSON
// form, for a service that documents or checks what it returns.
//
//go:embed response.schema.json
var ResponseSchema []byte

type responseJSON struct {
	Status          Status            `json:"status"`
	Isolation       string            `json:"isolation"`
	Value           json.RawMessage   `json:"value"`
	Error           *string           `json:"error"`
	Line            int               `json:"line,omitempty"`
	Traceback       string            `json:"traceback,omitempty"`
	Stdout          string            `json:"stdout"`
	Stderr          string            `json:"stderr"`
	StdoutTruncated bool              `json:"stdout_truncated"`
	StderrTruncated bool              `json:"stderr_truncated"`
	Transformed     string            `json:"transformed"`
	Calls           []Call            `json:"calls"`
	Emitted         []json.RawMessage `json:"emitted"`
	ElapsedMs       float64           `json:"elapsed_ms"`
	Native          []NativeFunction  `json:"native,omitempty"`
	Chunks          []Chunk           `json:"chunks,omitempty"`
	Journal         *Journal          `json:"journal,omitempty"`
}

type callJSON struct {
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args"`
	StartMs  float64         `json:"start_ms"`
	EndMs    float64         `json:"end_ms"`
	Error    *string         `json:"error"`
	Early    bool            `json:"early"`
	Stream   bool            `json:"stream"`
	Claimed  bool            `json:"claimed"`
	Mismatch bool            `json:"mismatch,omitempty"`
	// ArgsTruncated: a refused request; args is a string holding its start.
	ArgsTruncated bool `json:"args_truncated,omitempty"`
	Stale         bool `json:"stale,omitempty"`
	Replayed      bool `json:"replayed,omitempty"`
}

type nativeJSON struct {
	Name          string  `json:"name"`
	Status        string  `json:"status"`
	Reason        string  `json:"reason,omitempty"`
	Cache         string  `json:"cache,omitempty"`
	CompileMs     float64 `json:"compile_ms,omitempty"`
	SwitchedAfter int     `json:"switched_after"`
	Fallbacks     int     `json:"fallbacks"`
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

func nullIfEmpty(text string) *string {
	if text == "" {
		return nil
	}
	return &text
}

// MarshalJSON encodes the response in the form `spine run --json` prints
// (response.schema.json).
func (r Response) MarshalJSON() ([]byte, error) {
	v := responseJSON{Status: r.Status, Isolation: r.Isolation, Value: orNull(r.Value), Error: nullIfEmpty(r.Error),
		Line: r.Line, Traceback: r.Traceback, Stdout: r.Stdout, Stderr: r.Stderr,
		StdoutTruncated: r.StdoutTruncated, StderrTruncated: r.StderrTruncated, Transformed: r.Transformed,
		Calls: r.Calls, Emitted: r.Emitted, ElapsedMs: millis(r.Elapsed), Native: r.Native, Chunks: r.Chunks, Journal: r.Journal}
	if v.Calls == nil {
		v.Calls = []Call{}
	}
	if v.Emitted == nil {
		v.Emitted = []json.RawMessage{}
	}
	return json.Marshal(v)
}

// MarshalJSON encodes one call of the trace (an item of `calls`).
func (c Call) MarshalJSON() ([]byte, error) {
	return json.Marshal(callJSON{Tool: c.Tool, Args: orNull(c.Args), StartMs: millis(c.Start), EndMs: millis(c.End),
		Error: nullIfEmpty(c.Error), Early: c.Early, Stream: c.Stream, Claimed: c.Claimed, Mismatch: c.Mismatch,
		ArgsTruncated: c.ArgsTruncated, Stale: c.Stale, Replayed: c.Replayed})
}

// MarshalJSON encodes one function of the hot-function trace (an item of `native`).
func (f NativeFunction) MarshalJSON() ([]byte, error) {
	return json.Marshal(nativeJSON{Name: f.Name, Status: f.Status, Reason: f.Reason, Cache: f.Cache,
		CompileMs: millis(f.CompileTime), SwitchedAfter: f.SwitchedAfter, Fallbacks: f.Fallbacks})
}

func duration(ms float64) time.Duration { return time.Duration(math.Round(ms*1000)) * time.Microsecond }

func textOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// UnmarshalJSON decodes the form MarshalJSON writes (a client of a service
// that returns it gets the Response back; durations to the microsecond).
func (r *Response) UnmarshalJSON(data []byte) error {
	var v responseJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*r = Response{Status: v.Status, Isolation: v.Isolation, Value: v.Value, Error: textOf(v.Error), Line: v.Line,
		Traceback: v.Traceback, Stdout: v.Stdout, Stderr: v.Stderr, StdoutTruncated: v.StdoutTruncated,
		StderrTruncated: v.StderrTruncated, Transformed: v.Transformed, Calls: v.Calls, Emitted: v.Emitted,
		Elapsed: duration(v.ElapsedMs), Native: v.Native, Chunks: v.Chunks, Journal: v.Journal}
	return nil
}

// UnmarshalJSON decodes the form Call.MarshalJSON writes.
func (c *Call) UnmarshalJSON(data []byte) error {
	var v callJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*c = Call{Tool: v.Tool, Args: v.Args, Start: duration(v.StartMs), End: duration(v.EndMs), Error: textOf(v.Error),
		Early: v.Early, Stream: v.Stream, Claimed: v.Claimed, Mismatch: v.Mismatch, ArgsTruncated: v.ArgsTruncated,
		Stale: v.Stale, Replayed: v.Replayed}
	return nil
}

// UnmarshalJSON decodes the form NativeFunction.MarshalJSON writes.
func (f *NativeFunction) UnmarshalJSON(data []byte) error {
	var v nativeJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*f = NativeFunction{Name: v.Name, Status: v.Status, Reason: v.Reason, Cache: v.Cache,
		CompileTime: duration(v.CompileMs), SwitchedAfter: v.SwitchedAfter, Fallbacks: v.Fallbacks}
	return nil
}
