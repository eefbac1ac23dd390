package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/serve"
)

// serveCmd runs the HTTP service (internal/serve) until SIGINT or SIGTERM,
// then stops taking requests and lets those in flight finish.
func serveCmd(args []string, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveUntil(ctx, args, stderr, func(string) {})
}

// serveUntil serves until ctx ends; listening is told the address once the
// service accepts connections.
func serveUntil(ctx context.Context, args []string, stderr io.Writer, listening func(addr string)) int {
	fs := flag.NewFlagSet("spine serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	var addr, tokenFile string
	var opts serve.Options
	var maxChildren int
	fs.StringVar(&addr, "addr", ":8080", "address to listen on")
	fs.BoolVar(&f.demoTools, "demo-tools", false, "provide the demo tools echo, lookup, sleep, fail and emit")
	fs.StringVar(&f.manifest, "manifest", "", "JSON file listing tool specs, as for spine run")
	fs.StringVar(&f.mcp, "mcp", "", mcpFlagHelp)
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "wall-clock limit of an execution (a request may only lower it)")
	fs.StringVar(&f.isolation, "isolation", string(host.Sandbox), "where the guest runs: sandbox or inproc (trusted code only)")
	fs.IntVar(&maxChildren, "max-children", 0, "sandboxed children at most, i.e. concurrent executions (default: the engine's)")
	fs.StringVar(&tokenFile, "token-file", "", "require this file's content as bearer token (also $SPINE_TOKEN); /healthz stays open")
	fs.Int64Var(&opts.MaxRequestBytes, "max-request-bytes", 4<<20, "largest /v1/run body and /v1/stream program")
	fs.DurationVar(&opts.BodyTimeout, "body-timeout", 5*time.Minute, "longest a request's body (a streamed program) may take to arrive")
	fs.IntVar(&opts.Runs, "runs", 100, "recent runs kept in memory for /v1/runs/{id} (negative: none)")
	fs.Int64Var(&opts.RunBytes, "run-bytes", 64<<20, "bytes the kept runs may hold together")
	fs.IntVar(&opts.MaxSessions, "max-sessions", 16, "sessions open at once, each holding a sandboxed child (negative: none); past it 503")
	session := host.SessionOptions{}.WithDefaults()
	fs.DurationVar(&opts.SessionLimits.IdleTimeout, "session-idle", session.IdleTimeout, "longest a session may stay idle (and its default)")
	fs.DurationVar(&opts.SessionLimits.Lifetime, "session-lifetime", session.Lifetime, "longest a session may live (and its default)")
	fs.IntVar(&opts.SessionLimits.MaxExecutions, "session-executions", session.MaxExecutions, "most executions a session may run (and its default)")
	fs.Uint64Var(&opts.SessionLimits.MemoryBytes, "session-memory-bytes", 0, "most resident memory a session's child may keep (0: the sandbox's per-child limit only)")
	if code, done := parseFlags(fs, args, "usage: spine serve [flags]", stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitUsage
	}
	opts.Token = os.Getenv("SPINE_TOKEN")
	if tokenFile != "" {
		data, err := os.ReadFile(tokenFile)
		if err != nil {
			fmt.Fprintln(stderr, "spine serve: cannot read --token-file:", err)
			return exitUsage
		}
		opts.Token = strings.TrimSpace(string(data))
		if opts.Token == "" {
			fmt.Fprintln(stderr, "spine serve: --token-file is empty")
			return exitUsage
		}
	}
	tools, err := toolOptions(f)
	if err != nil {
		fmt.Fprintln(stderr, "spine serve:", err)
		return exitUsage
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	opts.Logger = logger
	server, err := serve.New(opts, append(tools, host.WithIsolation(host.Isolation(f.isolation)),
		host.WithLimits(host.Limits{Timeout: f.timeout}), host.WithSandbox(host.SandboxOptions{MaxChildren: maxChildren}),
		host.WithLogger(logger))...)
	if err != nil {
		fmt.Fprintln(stderr, "spine serve:", err)
		return exitUsage
	}
	defer server.Close()
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(stderr, "spine serve:", err)
		return exitUsage
	}
	httpServer := &http.Server{Handler: server, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 1 << 20}
	done := make(chan error, 1)
	go func() { done <- httpServer.Serve(listener) }()
	logger.Info("spine serve: listening", "addr", listener.Addr().String(), "isolation", server.Engine().Isolation(),
		"tools", len(server.Engine().Tools()), "auth", opts.Token != "")
	listening(listener.Addr().String())
	select {
	case err = <-done:
		fmt.Fprintln(stderr, "spine serve:", err)
		return exitUsage
	case <-ctx.Done():
	}
	// The engine's timeout bounds what is in flight, plus the tools' grace.
	shutdown, cancel := context.WithTimeout(context.Background(), f.timeout+2*host.ToolGrace)
	defer cancel()
	if err := httpServer.Shutdown(shutdown); err != nil {
		fmt.Fprintln(stderr, "spine serve: shutting down:", err)
	}
	return exitOK
}
