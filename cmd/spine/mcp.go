package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/mcpserve"
)

// serveMCP is `spine mcp`: an MCP server (stdio, or streamable HTTP with
// --http) whose run_python tool runs programs with the tools of
// --manifest, --demo-tools and --mcp.
func serveMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spine mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	var addr string
	var limits host.Limits
	var memoryMiB uint64
	fs.BoolVar(&f.demoTools, "demo-tools", false, "provide the demo tools echo, lookup, sleep, fail and emit")
	fs.StringVar(&f.manifest, "manifest", "", "JSON file listing tool specs, as for spine run")
	fs.StringVar(&f.mcp, "mcp", "", mcpFlagHelp)
	fs.StringVar(&f.isolation, "isolation", string(host.Sandbox), "where programs run: sandbox, or inproc (trusted code only)")
	fs.BoolVar(&f.plm, "plm", true, "run independent read-only tool calls in parallel (PLM)")
	fs.StringVar(&addr, "http", "", "serve streamable HTTP at ADDR (host:port) on path /mcp instead of stdio")
	fs.DurationVar(&limits.Timeout, "timeout", 30*time.Second, "wall-clock limit of one program")
	fs.IntVar(&limits.ToolCalls, "tool-calls", 0, "tool calls per program (default 10000)")
	fs.IntVar(&limits.StdoutBytes, "stdout-bytes", 0, "stdout kept per program (default 1 MiB)")
	fs.IntVar(&limits.ResultBytes, "result-bytes", 0, "size of a program's encoded result (default 16 MiB)")
	fs.Uint64Var(&memoryMiB, "memory-mib", 0, "address space of each sandboxed program, in MiB (default 1024)")
	if code, done := parseFlags(fs, args, "usage: spine mcp [flags]   (an MCP server on stdio, or with --http ADDR on http://ADDR/mcp)", stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitUsage
	}
	options, err := toolOptions(f)
	if err != nil {
		fmt.Fprintln(stderr, "spine mcp:", err)
		return exitUsage
	}
	options = append(options, host.WithIsolation(host.Isolation(f.isolation)), host.WithLimits(limits),
		host.WithSandbox(host.SandboxOptions{MemoryBytes: memoryMiB << 20}))
	engine, err := host.New(options...)
	if err != nil {
		fmt.Fprintln(stderr, "spine mcp:", err)
		return exitUsage
	}
	defer engine.Close()
	server := mcpserve.New(engine, mcpserve.Options{PLM: f.plm})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if addr == "" {
		err = server.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopCloser{stdout}})
	} else {
		err = serveHTTP(ctx, server, addr, stderr)
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintln(stderr, "spine mcp:", err)
		return exitUsage
	}
	return exitOK
}

// serveHTTP serves the MCP server on http://addr/mcp until ctx ends; it
// prints the URL on stderr once it listens (port 0 picks a free port).
func serveHTTP(ctx context.Context, server *sdk.Server, addr string, stderr io.Writer) error {
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	httpServer := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "spine mcp: serving http://%s/mcp\n", listener.Addr())
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		httpServer.Shutdown(shutdown)
	}()
	if err := httpServer.Serve(listener); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// nopCloser is stdout as the transport's writer: closing the session does
// not close the process's stdout.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
