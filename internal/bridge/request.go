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
	if req, ok := splitRequest(raw); ok {
		return req, nil
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

// The shape bootstrap writes every request in (protocol.encode_request:
// keys sorted, no space): `{"args":A,"tool":"name"}`, with `"now":true`
// between them for a call the program makes now.
var (
	requestHead    = []byte(`{"args":`)
	requestToolKey = []byte(`,"tool":"`)
	requestNow     = []byte(`,"now":true`)
)

// splitRequest reads a request in bootstrap's shape by slicing it instead
// of decoding it: decoding was a third of a tool crossing's allocations,
// and the tool's schema decodes the arguments again. ok only when the
// slices mean exactly what json.Unmarshal would read: A is one valid JSON
// object with no space around it (a JSON value's extent is fixed by where
// it starts, so A cannot end earlier) and the name is plain identifier characters (no escape).
// Anything else, including every malformed request, takes the decoder and
// its error messages.
func splitRequest(raw []byte) (toolRequest, bool) {
	var req toolRequest
	if !bytes.HasPrefix(raw, requestHead) || !bytes.HasSuffix(raw, []byte(`"}`)) {
		return req, false
	}
	at := bytes.LastIndex(raw, requestToolKey)
	if at < len(requestHead) {
		return req, false
	}
	name := raw[at+len(requestToolKey) : len(raw)-2]
	if len(name) == 0 {
		return req, false
	}
	for _, c := range name {
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return req, false
		}
	}
	args := raw[len(requestHead):at]
	if bytes.HasSuffix(args, requestNow) {
		args, req.Now = args[:len(args)-len(requestNow)], true
	}
	if len(args) == 0 || args[0] != '{' || args[len(args)-1] != '}' || !json.Valid(args) {
		return toolRequest{}, false
	}
	req.Tool, req.Args = string(name), bytes.Clone(args)
	return req, true
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
