package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// toolRequest is the guest's request `{"args": {...}, "tool": name}`.
type toolRequest = protocol.ToolRequest

var errNotObject = errors.New("args must be a JSON object")

// parseRequest decodes and checks a tool request; the returned args are a
// copy, never the caller's (possibly C-owned) bytes.
func parseRequest(raw []byte, maxArgBytes int) (toolRequest, error) {
	var req toolRequest
	if len(raw) > requestBytes(maxArgBytes) {
		return req, errors.New(oversizedMessage(len(raw), maxArgBytes))
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return req, fmt.Errorf("malformed tool request: %v", err)
	}
	if req.Tool == "" {
		return req, errors.New("malformed tool request: no tool name")
	}
	args := bytes.TrimSpace(req.Args)
	if len(args) == 0 || args[0] != '{' {
		return req, fmt.Errorf("malformed tool request for %s: %w", req.Tool, errNotObject)
	}
	req.Args = args
	return req, nil
}

// requestBytes is the largest request accepted with arguments of at most
// maxArgBytes (the envelope around them is small).
func requestBytes(maxArgBytes int) int { return maxArgBytes + 64 }

func oversizedMessage(size, maxArgBytes int) string {
	return fmt.Sprintf("tool request of %d bytes exceeds the argument limit of %d bytes", size, maxArgBytes)
}

// canonical re-encodes JSON with sorted keys and no insignificant space,
// keeping every number exactly as written, so two requests for the same call
// compare equal byte for byte whoever encoded them.
func canonical(raw json.RawMessage) ([]byte, error) {
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var value any
	if err := decoder.Decode(&value); err != nil {
		return nil, err
	}
	return json.Marshal(value)
}

// response encodings, shared by every transport.
func valueResponse(value json.RawMessage) []byte {
	out := make([]byte, 0, len(value)+10)
	out = append(out, `{"value":`...)
	out = append(out, value...)
	return append(out, '}')
}

func errorResponse(message string) []byte {
	encoded, _ := json.Marshal(protocol.ToolResponse{Error: &message})
	return encoded
}
