package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/protocol"
)

const interrupted = `{"error":"Interrupt: stop","kind":"interrupt","line":1,"traceback":"","transformed":""}`

// A result may report only an interrupt the host sent: each reason is
// refused before the host could have sent it and accepted after.
func TestAcceptBelievesOnlyInterruptsTheHostSent(t *testing.T) {
	echo, err := NewTool("echo", "", nil, true, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) { return args, nil })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		reason Reason
		cause  func(s *Session, cancel context.CancelFunc)
	}{
		{LimitExceeded, func(s *Session, _ context.CancelFunc) {
			s.Call([]byte(`{"args":{},"tool":"echo"}`))
			s.Call([]byte(`{"args":{},"tool":"echo"}`)) // the second is over the limit of 1
		}},
		{Cancelled, func(_ *Session, cancel context.CancelFunc) { cancel() }},
		{Timeout, func(s *Session, _ context.CancelFunc) { s.SetDeadline(time.Now().Add(-time.Millisecond)) }},
	} {
		t.Run(c.reason.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := NewSession(ctx, Config{Tools: map[string]*Tool{"echo": echo}, Limits: Limits{MaxToolCalls: 1}})
			defer s.Close()
			s.SetDeadline(time.Now().Add(time.Hour))
			forged := &Result{Response: []byte(interrupted), Interrupted: c.reason}
			if err := s.Accept(forged); !errors.Is(err, protocol.ErrBreach) || forged.Envelope() != nil {
				t.Fatalf("a %v the host never sent was accepted: %v", c.reason, err)
			}
			c.cause(s, cancel)
			sent := &Result{Response: []byte(interrupted), Interrupted: c.reason}
			if err := s.Accept(sent); err != nil || sent.Envelope() == nil || sent.Envelope().Kind != protocol.OutcomeInterrupt {
				t.Fatalf("a %v the host sent was refused: %v", c.reason, err)
			}
		})
	}
}

func TestAcceptChecksTheResponseAgainstTheSessionsLimits(t *testing.T) {
	s := NewSession(context.Background(), Config{Result: protocol.ResultLimits{ResultBytes: 10, ResultDepth: 1, StdoutBytes: 4}})
	defer s.Close()
	for response, because := range map[string]string{
		`{"value":"0123456789"}`:         "result of 12 bytes exceeds the limit of 10 bytes",
		`{"value":[[1]]}`:                "nests deeper",
		`{"error":"x","kind":"request"}`: `claims the outcome "request"`,
	} {
		r := &Result{Response: []byte(response)}
		if err := s.Accept(r); err == nil || !strings.Contains(err.Error(), because) {
			t.Errorf("%s: want %q, got %v", response, because, err)
		}
	}
	if err := s.Accept(&Result{Response: []byte(`{"value":1}`), Stdout: []byte("12345")}); err == nil || !strings.Contains(err.Error(), "captured stdout of 5 bytes") {
		t.Errorf("stdout over its limit: %v", err)
	}
	ok := &Result{Response: []byte(`{"value":[1]}`), Stdout: []byte("1234")}
	if err := s.Accept(ok); err != nil || string(ok.Envelope().Value) != "[1]" {
		t.Errorf("a result within its limits: %v", err)
	}
}

// Answer is the one place crossings are served: what each returns, and the
// interrupt it tells the transport to deliver.
func TestAnswerServesEveryCrossing(t *testing.T) {
	echo, _ := NewTool("echo", "", nil, true, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) { return args, nil })
	ctx, cancel := context.WithCancel(context.Background())
	s := NewSession(ctx, Config{Tools: map[string]*Tool{"echo": echo}, Limits: Limits{MaxToolCalls: 2}})
	defer s.Close()
	request := []byte(`{"args":{"x":1},"tool":"echo"}`)
	n, response, reason := s.Answer(protocol.CrossCall, 0, request)
	if string(response) != `{"value":{"x":1}}` || n != int64(len(response)) || reason != NotInterrupted {
		t.Fatalf("call: %d %s %v", n, response, reason)
	}
	handle, response, reason := s.Answer(protocol.CrossPrepare, 0, request)
	if handle <= 0 || response != nil || reason != NotInterrupted {
		t.Fatalf("prepare: %d %s %v", handle, response, reason)
	}
	n, response, _ = s.Answer(protocol.CrossNative, 0, []byte(`{"op":"poll"}`))
	if !strings.Contains(string(response), "native functions are off") || n != int64(len(response)) {
		t.Fatalf("native without a handler: %d %s", n, response)
	}
	if n, _, _ := s.Answer(protocol.Crossing(99), 0, request); n != -1 {
		t.Fatalf("an unknown crossing: %d", n)
	}
	n, response, reason = s.Answer(protocol.CrossResolve, uint64(handle), request)
	if string(response) != `{"value":{"x":1}}` || reason != NotInterrupted {
		t.Fatalf("resolve: %d %s %v", n, response, reason)
	}
	if _, _, reason := s.Answer(protocol.CrossCall, 0, request); reason != LimitExceeded {
		t.Fatalf("the third request exceeds the limit of 2: want LimitExceeded, got %v", reason)
	}
	cancel()
	// Once the context ended nothing starts (nor counts); only a crossing
	// that waits for a tool reports the end with its answer.
	ended, stop := context.WithCancel(context.Background())
	other := NewSession(ended, Config{Tools: map[string]*Tool{"echo": echo}})
	defer other.Close()
	stop()
	if _, _, reason := other.Answer(protocol.CrossPrepare, 0, request); reason != NotInterrupted {
		t.Fatalf("a prepare waits for no tool: the context's end is not its answer's, got %v", reason)
	}
	if _, _, reason := other.Answer(protocol.CrossCall, 0, request); reason != Cancelled {
		t.Fatalf("a call answered after the context ended: want Cancelled, got %v", reason)
	}
}
