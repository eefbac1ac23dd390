// Package demotools holds the demonstration tools that the CLI (--demo-tools),
// the examples and the tests share. Their behaviour is part of the contract
// the differential test corpus (tests/programs) is written against.
package demotools

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// pure is the Reads of the speculative demo tools: their values depend on
// their arguments alone, so no effect holds them back.
var pure = []string{}

// Tools returns echo, lookup, sleep, fail (speculative, reading nothing) and
// emit (effectful, writing only the emitted list, which no tool reads).
func Tools() []host.Tool {
	return []host.Tool{Echo(), Lookup(), Sleep(), Fail(), EmitTool()}
}

// Echo returns its keyword arguments as an object.
func Echo() host.Tool {
	return host.NewTool(host.ToolSpec{
		Name: "echo", Description: "Return the keyword arguments as an object.", Speculative: true, Reads: pure,
		Schema: json.RawMessage(`{"type":"object"}`),
	}, func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
		return args, nil
	})
}

var errNotInteger = errors.New("lookup: key must be an integer")

// Lookup returns 7 * key for an integer key of any size.
func Lookup() host.Tool {
	return host.NewTool(host.ToolSpec{
		Name: "lookup", Description: "Return 7 * key for an integer key.", Speculative: true, Reads: pure,
		Schema: json.RawMessage(`{"type":"object","properties":{"key":{}},"required":["key"],"additionalProperties":false}`),
	}, func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
		var in struct {
			Key json.RawMessage `json:"key"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, errNotInteger
		}
		// An integer is a JSON number without fraction or exponent; any size.
		key, ok := new(big.Int).SetString(string(in.Key), 10)
		if !ok {
			return nil, errNotInteger
		}
		return json.RawMessage(key.Mul(key, big.NewInt(7)).String()), nil
	})
}

// Sleep waits ms milliseconds (honouring cancellation), then returns value.
func Sleep() host.Tool {
	return host.NewTool(host.ToolSpec{
		Name: "sleep", Description: "Wait ms milliseconds, then return value.", Speculative: true, Reads: pure,
		Schema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"number","minimum":0},"value":{}},"required":["ms"],"additionalProperties":false}`),
	}, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		var in struct {
			Ms    float64         `json:"ms"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		timer := time.NewTimer(time.Duration(in.Ms * float64(time.Millisecond)))
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-ctx.Done():
			return nil, errors.New("sleep: " + ctx.Err().Error())
		}
		if len(in.Value) == 0 {
			return json.RawMessage("null"), nil
		}
		return in.Value, nil
	})
}

// Fail returns the tool error message.
func Fail() host.Tool {
	return host.NewTool(host.ToolSpec{
		Name: "fail", Description: "Fail with the given message.", Speculative: true, Reads: pure,
		Schema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"],"additionalProperties":false}`),
	}, func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
		var in struct {
			Message string `json:"message"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		return nil, errors.New(in.Message)
	})
}

// EmitTool appends value to the execution's emitted list and returns the new
// length. It stands for an effectful tool: it is not speculative.
func EmitTool() host.Tool {
	return host.NewTool(host.ToolSpec{
		Name: "emit", Description: "Append value to the emitted list; return its new length.",
		Writes: []string{"emitted"},
		Schema: json.RawMessage(`{"type":"object","properties":{"value":{}},"required":["value"],"additionalProperties":false}`),
	}, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		var in struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		n, err := host.Emit(ctx, in.Value)
		if err != nil {
			return nil, err
		}
		return json.Marshal(n)
	})
}
