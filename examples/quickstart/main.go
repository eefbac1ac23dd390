// Quickstart: embed spine in a Go program, register a typed tool beside the
// demo tools, and run an agent-written program with PLM.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

type weatherArgs struct {
	City string `json:"city" jsonschema:"description=City name"`
}

type weather struct {
	City    string `json:"city"`
	Celsius int    `json:"celsius"`
}

func main() {
	forecast := host.Func("forecast", func(_ context.Context, in weatherArgs) (weather, error) {
		if in.City == "" {
			return weather{}, fmt.Errorf("forecast: city is required")
		}
		return weather{City: in.City, Celsius: 10 + len(in.City)}, nil
	}, host.Describe("Today's forecast for a city."), host.Speculative())

	engine, err := host.New(host.WithTools(append(demotools.Tools(), forecast)...))
	if err != nil {
		log.Fatal(err)
	}
	defer engine.Close()

	source, err := os.ReadFile("program.py")
	if err != nil {
		log.Fatal(err)
	}
	program := string(source) + "\nresult['paris'] = forecast(city='Paris')\n"
	resp, err := engine.Execute(context.Background(), host.Request{
		Source: program,
		Inputs: json.RawMessage(`{"keys": [1, 2, 3, 4]}`),
		PLM:    true,
	})
	if err != nil {
		log.Fatalf("program failed: %v", err)
	}
	fmt.Println("isolation:", engine.Isolation())
	fmt.Print(resp.Stdout)
	fmt.Printf("result: %s\n", resp.Value)
	fmt.Printf("emitted: %s\n", joinRaw(resp.Emitted))
	for _, c := range resp.Calls {
		fmt.Printf("  %-8s %-28s early=%-5v %6.2f..%6.2f ms\n", c.Tool, c.Args, c.Early,
			float64(c.Start.Microseconds())/1000, float64(c.End.Microseconds())/1000)
	}
}

func joinRaw(values []json.RawMessage) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = string(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
