package host

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
)

// The JSON form of a Request is what a service takes to run a program
// (`spine serve`, POST /v1/run), described by request.schema.json beside
// this file, in the style of the Response's: snake_case names, durations in
// milliseconds, every member but `source` optional. A Request's Stdout and
// Stderr writers have no JSON form.

// RequestSchema is the JSON Schema (draft 2020-12) of a Request's JSON form.
//
//go:embed request.schema.json
var RequestSchema []byte

type requestJSON struct {
	Source string          `json:"source"`
	Inputs json.RawMessage `json:"inputs,omitempty"`
	// Tools is a pointer so that an absent member (every tool) and an empty
	// list (no tool) stay apart.
	Tools  *[]string   `json:"tools,omitempty"`
	PLM    bool        `json:"plm,omitempty"`
	Native NativeMode  `json:"native,omitempty"`
	Limits *limitsJSON `json:"limits,omitempty"`
	Name   string      `json:"name,omitempty"`
	// RequireApproval is a service's way to gate a run's calls: a run that
	// reaches one answers with status suspended and a journal to resume.
	RequireApproval []string `json:"require_approval,omitempty"`
}

type limitsJSON struct {
	TimeoutMs    float64 `json:"timeout_ms,omitempty"`
	StdoutBytes  int     `json:"stdout_bytes,omitempty"`
	ResultBytes  int     `json:"result_bytes,omitempty"`
	ResultDepth  int     `json:"result_depth,omitempty"`
	ToolCalls    int     `json:"tool_calls,omitempty"`
	ToolArgBytes int     `json:"tool_arg_bytes,omitempty"`
	HostBytes    int     `json:"host_bytes,omitempty"`
	Recursion    int     `json:"recursion,omitempty"`
	Fanout       int     `json:"fanout,omitempty"`
}

// MarshalJSON encodes the request's JSON form.
func (r Request) MarshalJSON() ([]byte, error) {
	v := requestJSON{Source: r.Source, PLM: r.PLM, Native: r.Native, Name: r.Name, RequireApproval: r.RequireApproval}
	if len(bytes.TrimSpace(r.Inputs)) > 0 {
		v.Inputs = r.Inputs
	}
	if r.Tools != nil {
		v.Tools = &r.Tools
	}
	if l := r.Limits; l != (Limits{}) {
		v.Limits = &limitsJSON{TimeoutMs: millis(l.Timeout), StdoutBytes: l.StdoutBytes, ResultBytes: l.ResultBytes,
			ResultDepth: l.ResultDepth, ToolCalls: l.ToolCalls, ToolArgBytes: l.ToolArgBytes, HostBytes: l.HostBytes,
			Recursion: l.Recursion, Fanout: l.Fanout}
	}
	return json.Marshal(v)
}

// UnmarshalJSON decodes the request's JSON form strictly: an unknown member
// is an error (a misspelt limit must not silently go unapplied).
func (r *Request) UnmarshalJSON(data []byte) error {
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.DisallowUnknownFields()
	var v requestJSON
	if err := decoder.Decode(&v); err != nil {
		return fmt.Errorf("request: %w", err)
	}
	switch v.Native {
	case "", NativeOff, NativeEager, NativeAuto:
	default:
		return fmt.Errorf("request: native must be off, eager or auto, not %q", v.Native)
	}
	*r = Request{Source: v.Source, Inputs: v.Inputs, PLM: v.PLM, Native: v.Native, Name: v.Name, RequireApproval: v.RequireApproval}
	if v.Tools != nil {
		r.Tools = append([]string{}, (*v.Tools)...)
	}
	if l := v.Limits; l != nil {
		if l.TimeoutMs < 0 {
			return errors.New("request: limits.timeout_ms must not be negative")
		}
		r.Limits = Limits{Timeout: duration(l.TimeoutMs), StdoutBytes: l.StdoutBytes, ResultBytes: l.ResultBytes,
			ResultDepth: l.ResultDepth, ToolCalls: l.ToolCalls, ToolArgBytes: l.ToolArgBytes, HostBytes: l.HostBytes,
			Recursion: l.Recursion, Fanout: l.Fanout}
	}
	return nil
}
