package main

import (
	"encoding/json"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// responseView is the stable JSON contract of `spine run --json`.
type responseView struct {
	Status          host.Status       `json:"status"`
	Isolation       string            `json:"isolation"`
	Value           json.RawMessage   `json:"value"`
	Error           *string           `json:"error"`
	Line            int               `json:"line,omitempty"`
	Traceback       string            `json:"traceback,omitempty"`
	Stdout          string            `json:"stdout"`
	Stderr          string            `json:"stderr"`
	StdoutTruncated bool              `json:"stdout_truncated"`
	Transformed     string            `json:"transformed"`
	Calls           []callView        `json:"calls"`
	Emitted         []json.RawMessage `json:"emitted"`
	ElapsedMs       float64           `json:"elapsed_ms"`
	Native          []nativeView      `json:"native,omitempty"`
}

// nativeView is one function of the hot-function trace (--native).
type nativeView struct {
	Name          string  `json:"name"`
	Status        string  `json:"status"`
	Reason        string  `json:"reason,omitempty"`
	Cache         string  `json:"cache,omitempty"`
	CompileMs     float64 `json:"compile_ms,omitempty"`
	SwitchedAfter int     `json:"switched_after"`
	Fallbacks     int     `json:"fallbacks"`
}

type callView struct {
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
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func jsonView(r *host.Response) responseView {
	v := responseView{Status: r.Status, Isolation: r.Isolation, Value: r.Value, Line: r.Line, Traceback: r.Traceback,
		Stdout: r.Stdout, Stderr: r.Stderr, StdoutTruncated: r.StdoutTruncated, Transformed: r.Transformed,
		Calls: []callView{}, Emitted: r.Emitted, ElapsedMs: ms(r.Elapsed)}
	if v.Value == nil {
		v.Value = json.RawMessage("null")
	}
	if v.Emitted == nil {
		v.Emitted = []json.RawMessage{}
	}
	if r.Error != "" {
		text := r.Error
		v.Error = &text
	}
	for _, f := range r.Native {
		v.Native = append(v.Native, nativeView{Name: f.Name, Status: f.Status, Reason: f.Reason, Cache: f.Cache,
			CompileMs: ms(f.CompileTime), SwitchedAfter: f.SwitchedAfter, Fallbacks: f.Fallbacks})
	}
	for _, c := range r.Calls {
		cv := callView{Tool: c.Tool, Args: c.Args, StartMs: ms(c.Start), EndMs: ms(c.End),
			Early: c.Early, Stream: c.Stream, Claimed: c.Claimed, Mismatch: c.Mismatch, ArgsTruncated: c.ArgsTruncated,
			Stale: c.Stale}
		if cv.Args == nil {
			cv.Args = json.RawMessage("null")
		}
		if c.Error != "" {
			text := c.Error
			cv.Error = &text
		}
		v.Calls = append(v.Calls, cv)
	}
	return v
}
