// Command upstream is the MCP server the tests and benchmarks give spine as
// an upstream: built with the official Go SDK, served over stdio (the
// default) or streamable HTTP (-http ADDR; it prints its URL on stdout).
//
// Its tools cover what an upstream can do to a caller: structured and text
// results, several blocks, an isError result, a process that exits in the
// middle of a call, a slow read-only call, and a name that clashes.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type addArgs struct {
	A int `json:"a" jsonschema:"the first term"`
	B int `json:"b" jsonschema:"the second term"`
}

type sum struct {
	Sum int `json:"sum"`
}

type nameArgs struct {
	Name string `json:"name"`
}

type countArgs struct {
	N int `json:"n"`
}

type textArgs struct {
	Text string `json:"text"`
}

type slowArgs struct {
	Key int `json:"key"`
	MS  int `json:"ms"`
}

type none struct{}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "1"}, nil)
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds two integers.", Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, in addArgs) (*mcp.CallToolResult, sum, error) {
			return nil, sum{Sum: in.A + in.B}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "get-greeting", Description: "Greets someone.", Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, in nameArgs) (*mcp.CallToolResult, any, error) {
			return text("hello " + in.Name), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "lines", Description: "Returns n text blocks."},
		func(ctx context.Context, req *mcp.CallToolRequest, in countArgs) (*mcp.CallToolResult, any, error) {
			result := &mcp.CallToolResult{Content: []mcp.Content{}}
			for i := range in.N {
				result.Content = append(result.Content, &mcp.TextContent{Text: fmt.Sprintf("line %d", i)})
			}
			return result, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes its text.", Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, in textArgs) (*mcp.CallToolResult, any, error) {
			return text(in.Text), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails (isError)."},
		func(ctx context.Context, req *mcp.CallToolRequest, in none) (*mcp.CallToolResult, any, error) {
			result := text("upstream says no")
			result.IsError = true
			return result, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "die", Description: "Exits the server in the middle of the call."},
		func(ctx context.Context, req *mcp.CallToolRequest, in none) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "upstream: dying on purpose")
			os.Exit(3)
			return nil, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Waits ms milliseconds, then returns 2*key.", Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, in slowArgs) (*mcp.CallToolResult, any, error) {
			select {
			case <-time.After(time.Duration(in.MS) * time.Millisecond):
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			return &mcp.CallToolResult{StructuredContent: 2 * in.Key, Content: []mcp.Content{}}, nil, nil
		})
	return s
}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on ADDR (host:port; port 0 picks one) instead of stdio")
	flag.Parse()
	s := server()
	if *addr == "" {
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil && !strings.Contains(err.Error(), "EOF") {
			log.Fatal(err)
		}
		return
	}
	listener, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s/mcp\n", listener.Addr())
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", requireHeader(handler))
	log.Fatal(http.Serve(listener, mux))
}

// requireHeader refuses requests without the header the tests configure,
// so they show that "headers" reach the server.
func requireHeader(next http.Handler) http.Handler {
	want := os.Getenv("UPSTREAM_TOKEN")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if want != "" && r.Header.Get("Authorization") != "Bearer "+want {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
