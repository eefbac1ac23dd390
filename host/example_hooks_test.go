package host_test

import (
	"context"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/spine-sandbox/spine/host"
)

// An approval hook: send_email runs only when the callback says so; a
// refusal is a PermissionError the program can catch where it made the call.
func ExampleApproval() {
	send := host.Func("send_email", func(_ context.Context, m struct {
		To string `json:"to"`
	}) (string, error) {
		return "sent to " + m.To, nil
	}, host.Writes("mailbox"))
	approve := func(_ context.Context, call host.CallInfo) (bool, string) {
		if strings.Contains(string(call.Args), "@example.com") {
			return true, ""
		}
		return false, "only @example.com may be mailed"
	}
	engine, err := host.New(host.WithTools(send), host.WithHooks(host.Approval(approve, "send_email")))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{Source: `
sent = [send_email(to="ann@example.com")]
try:
    sent.append(send_email(to="bob@elsewhere.org"))
except PermissionError as refusal:
    sent.append(f"refused: {refusal}")
result = sent`})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(resp.Value))
	fmt.Println(resp.Calls[1].Error)
	// Output:
	// ["sent to ann@example.com", "refused: only @example.com may be mailed"]
	// denied: only @example.com may be mailed
}

// Tracing a PLM run: the execution's span, and under it one span per tool
// call, saying which calls started early and whether the program used them.
func ExampleWithTracerProvider() {
	exporter := tracetest.NewInMemoryExporter()
	lookup := host.Func("lookup", func(_ context.Context, a struct {
		Key int `json:"key"`
	}) (int, error) {
		return 7 * a.Key, nil
	}, host.Speculative(), host.Reads())
	engine, err := host.New(host.WithTools(lookup),
		host.WithTracerProvider(trace.NewTracerProvider(trace.WithSyncer(exporter))))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	if _, err := engine.Execute(context.Background(), host.Request{PLM: true,
		Source: "result = lookup(key=1) + lookup(key=2)"}); err != nil {
		panic(err)
	}
	for _, span := range exporter.GetSpans() {
		line := span.Name
		for _, kv := range span.Attributes {
			if key := string(kv.Key); key == "spine.tool.early" || key == "spine.tool.claimed" || key == "spine.status" {
				line += fmt.Sprintf(" %s=%s", strings.TrimPrefix(key, "spine."), kv.Value.Emit())
			}
		}
		fmt.Println(line)
	}
	// Output:
	// execute_tool lookup tool.early=true tool.claimed=true
	// execute_tool lookup tool.early=true tool.claimed=true
	// spine.execute status=ok
}
