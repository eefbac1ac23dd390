package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// outcome is what one submission got back.
type outcome struct {
	status  host.Status
	value   string // canonical JSON of an ok run's value
	problem string // how the response broke the error contract ("" : it did not)
	elapsed time.Duration
}

func (h *harness) execute(ctx context.Context, req host.Request) outcome {
	start := time.Now()
	resp, err := h.engine.Execute(ctx, req)
	return judge(resp, err, start)
}

var errorIs = errors.Is

// judge reads a response and error as a caller would, and notes any breach of
// the contract of Execute and Finish: every failure is an *ExecError whose
// kind agrees with the status, with one prefix, and a valid request is never
// blamed on the caller.
func judge(resp *host.Response, err error, start time.Time) outcome {
	o := outcome{elapsed: time.Since(start)}
	var problems []string
	var execErr *host.ExecError
	if err != nil && !errors.As(err, &execErr) {
		problems = append(problems, fmt.Sprintf("error is a %T, not an *ExecError: %v", err, err))
	}
	switch {
	case resp != nil:
		o.status = resp.Status
		if (resp.Status == host.StatusOK) != (err == nil) {
			problems = append(problems, fmt.Sprintf("status %s with error %v", resp.Status, err))
		}
		if doubled(resp.Error) {
			problems = append(problems, "doubled prefix: "+resp.Error)
		}
	case err != nil:
		o.status = statusOfError(err)
	default:
		problems = append(problems, "neither a response nor an error")
	}
	if err != nil {
		if doubled(err.Error()) {
			problems = append(problems, "doubled prefix: "+err.Error())
		}
		if errors.Is(err, host.ErrBadRequest) {
			problems = append(problems, "a valid request was blamed on the caller: "+err.Error())
		}
		if o.status == host.StatusTimeout && !(errors.Is(err, host.ErrTimeout) && errors.Is(err, context.DeadlineExceeded)) {
			problems = append(problems, "timeout that errors.Is does not match to ErrTimeout and DeadlineExceeded: "+err.Error())
		}
		if o.status == host.StatusCancelled && !errors.Is(err, context.Canceled) {
			problems = append(problems, "cancel that errors.Is does not match to context.Canceled: "+err.Error())
		}
	}
	if o.status == host.StatusOK && resp != nil {
		o.value = canonical(string(resp.Value))
	}
	o.problem = strings.Join(problems, "; ")
	return o
}

// statusOfError names the status of a failure that came without a response.
func statusOfError(err error) host.Status {
	switch {
	case errors.Is(err, context.Canceled):
		return host.StatusCancelled
	case errors.Is(err, host.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return host.StatusTimeout
	case errors.Is(err, host.ErrLimit):
		return host.StatusLimit
	case errors.Is(err, host.ErrGuest):
		return host.StatusError
	case errors.Is(err, host.ErrBadRequest):
		return "bad_request"
	case errors.Is(err, host.ErrClosed):
		return "closed"
	case errors.Is(err, host.ErrSandbox):
		return "sandbox (no response)"
	}
	return "untyped error"
}

// doubled reports a message whose prefix repeats ("crashed: crashed: ...",
// "spine: ...: spine: ...").
func doubled(message string) bool {
	if strings.Count(message, "spine:") > 1 {
		return true
	}
	parts := strings.SplitN(message, ": ", 4)
	for i := 1; i < len(parts); i++ {
		if parts[i] == parts[i-1] {
			return true
		}
	}
	return false
}

// canonical re-encodes a JSON value with sorted keys, so values compare as text.
func canonical(raw string) string {
	var v any
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return "invalid JSON: " + raw
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSpace(out.String())
}
