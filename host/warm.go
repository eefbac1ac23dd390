package host

import (
	"encoding/json"
	"fmt"
)

// warmRequest is what the sandbox's zygote and every spare child warm up
// on: a request written as encodeRequest writes this engine's own (its
// manifest under its key, its limits), for a program of the commonest
// shape: a print, one call of the engine's first tool, a result. The child
// answers the call itself; nothing of it reaches a tool. The zygote then
// parses the manifest and works out the tools' signatures once, in pages
// every child shares, and each child's first writes to what an execution
// of this engine touches are made while it waits as a spare.
func (e *Engine) warmRequest() []byte {
	source := "print('w')\nresult = {'y': [1.5, None, 'z']}"
	if len(e.order) > 0 {
		source = fmt.Sprintf("print('w')\nresult = {'x': %s(key=inputs['item']), 'y': [1.5, None, 'z']}", e.order[0])
	}
	request, err := e.encodeRequest(Request{Source: source}, e.limits, json.RawMessage(`{"item":3}`), e.manifest, nil)
	if err != nil {
		return nil // the built-in warm-up then: slower first writes, nothing less confined
	}
	return request
}
