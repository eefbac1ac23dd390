package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

type runFlags struct {
	inputs    string
	demoTools bool
	manifest  string
	timeout   time.Duration
	isolation string
	asJSON    bool
	plm       bool
	stream    bool
	chunk     int
	delay     time.Duration
	native    string
	mcp       string
	traceHTML string
	approval  []string // tools whose calls suspend the run (resume.go)
	journal   string   // where a suspended run's journal goes
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spine run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	fs.StringVar(&f.inputs, "inputs", "{}", "inputs as JSON, or @FILE to read them from a file")
	fs.BoolVar(&f.demoTools, "demo-tools", false, "provide the demo tools echo, lookup, sleep, fail and emit")
	fs.StringVar(&f.manifest, "manifest", "", "JSON file listing tool specs (name, description, schema, speculative, reads, writes); a spec with \"command\" runs that argv with the JSON args on stdin")
	fs.StringVar(&f.mcp, "mcp", "", mcpFlagHelp)
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "wall-clock limit of the execution")
	fs.StringVar(&f.isolation, "isolation", string(host.Sandbox), "where the guest runs: sandbox (a locked-down child process) or inproc (this process; trusted code only)")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object with the whole response")
	fs.BoolVar(&f.plm, "plm", false, "run independent speculative tool calls in parallel (PLM)")
	fs.BoolVar(&f.stream, "stream", false, "read the program incrementally and start tool calls while it arrives (implies PLM)")
	fs.IntVar(&f.chunk, "chunk-bytes", 0, "with --stream: replay FILE as a simulated stream of N-byte chunks")
	fs.DurationVar(&f.delay, "chunk-delay", 0, "with --stream: wait D between simulated chunks")
	fs.StringVar(&f.traceHTML, "trace-html", "", "write a self-contained HTML page of the run (the program, a waterfall of its tool calls, the result) to FILE")
	fs.StringVar(&f.native, "native", string(host.NativeOff), "compile eligible typed functions to native code: off, eager (before the program runs) or auto (once hot, in the background); needs the toolchain bin/spine-native or $SPINE_NATIVE")
	journalFlags(fs, &f)
	if code, done := parseFlags(fs, args, "usage: spine run [flags] FILE|-", stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "spine run: exactly one program FILE (or - for stdin) is required")
		return exitUsage
	}
	if (f.chunk != 0 || f.delay != 0) && !f.stream {
		fmt.Fprintln(stderr, "spine run: --chunk-bytes and --chunk-delay need --stream")
		return exitUsage
	}
	if f.chunk < 0 || f.delay < 0 {
		fmt.Fprintln(stderr, "spine run: --chunk-bytes and --chunk-delay must not be negative")
		return exitUsage
	}
	var source string
	var input io.ReadCloser
	var err error
	if f.stream {
		if input, err = openStream(fs.Arg(0), stdin); err != nil {
			fmt.Fprintln(stderr, "spine run:", err)
			return exitUsage
		}
		defer input.Close()
	} else if source, err = readSource(fs.Arg(0), stdin); err != nil {
		fmt.Fprintln(stderr, "spine run:", err)
		return exitUsage
	}
	inputs, err := readInputs(f.inputs)
	if err != nil {
		fmt.Fprintln(stderr, "spine run:", err)
		return exitUsage
	}
	var page *os.File // opened first: a path that cannot be written fails before the program runs
	if f.traceHTML != "" {
		if page, err = os.Create(f.traceHTML); err != nil {
			fmt.Fprintln(stderr, "spine run: --trace-html:", err)
			return exitUsage
		}
		defer page.Close()
	}
	engine, err := newEngine(f, oneExecution)
	if err != nil {
		fmt.Fprintln(stderr, "spine run:", err)
		return exitUsage
	}
	defer engine.Close()

	request := host.Request{Source: source, Inputs: inputs, PLM: f.plm, Native: host.NativeMode(f.native),
		RequireApproval: f.approval}
	var resp *host.Response
	if f.stream {
		var fed bytes.Buffer
		resp, err = runStream(engine, request, io.TeeReader(input, &fed), f.chunk, f.delay)
		source = fed.String()
	} else {
		resp, err = engine.Execute(context.Background(), request)
	}
	if page != nil && resp != nil {
		if writeErr := writeTraceHTML(page, fs.Arg(0), source, resp); writeErr != nil {
			fmt.Fprintln(stderr, "spine run: --trace-html:", writeErr)
			return exitUsage
		}
	}
	if errors.Is(err, host.ErrSuspended) {
		return suspendedExit(resp, f.journal, f.asJSON, stdout, stderr)
	}
	return report(resp, err, f.asJSON, stdout, stderr)
}

// oneExecution sizes the sandbox for a command that runs one execution and
// exits: one child, not the default four warm ones, and no other (neither
// its replacement nor one more for the execution, which asks before that
// child is ready). Every child is forked, confined and warmed up, and those
// the execution never takes are killed at exit: about 3 ms of CPU each, and
// more the longer the execution runs (they get further in their warm-up),
// which `--native eager` paid for as if it were native code's cost.
var oneExecution = host.WithSandbox(host.SandboxOptions{Prefork: 1, OneExecution: true})

// newEngine makes the engine the flags describe, with @p extra options.
func newEngine(f runFlags, extra ...host.Option) (*host.Engine, error) {
	options, err := toolOptions(f)
	if err != nil {
		return nil, err
	}
	options = append(options, extra...)
	options = append(options, host.WithIsolation(host.Isolation(f.isolation)), host.WithLimits(host.Limits{Timeout: f.timeout}))
	switch host.NativeMode(f.native) {
	case host.NativeOff:
	case host.NativeEager, host.NativeAuto:
		options = append(options, host.WithNative(host.NativeOptions{}))
	default:
		return nil, fmt.Errorf("--native must be off, eager or auto, not %q", f.native)
	}
	return host.New(options...)
}

func readSource(path string, stdin io.Reader) (string, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the program: %w", err)
	}
	return string(data), nil
}

func readInputs(arg string) (json.RawMessage, error) {
	data := []byte(arg)
	if strings.HasPrefix(arg, "@") {
		var err error
		if data, err = os.ReadFile(arg[1:]); err != nil {
			return nil, fmt.Errorf("cannot read --inputs: %w", err)
		}
	}
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		return nil, errors.New("--inputs is not valid JSON")
	}
	return data, nil
}

// writeOutput prints resp as one JSON object (asJSON), or else the
// program's own stdout and stderr.
func writeOutput(resp *host.Response, asJSON bool, stdout, stderr io.Writer) {
	if asJSON {
		encoded, _ := json.Marshal(resp)
		fmt.Fprintf(stdout, "%s\n", encoded)
		return
	}
	io.WriteString(stdout, resp.Stdout)
	io.WriteString(stderr, resp.Stderr)
}

// report prints the response and returns the exit status.
func report(resp *host.Response, err error, asJSON bool, stdout, stderr io.Writer) int {
	var exec *host.ExecError
	if err != nil && (resp == nil || !errors.As(err, &exec)) {
		fmt.Fprintln(stderr, "spine run:", err)
		return exitUsage
	}
	writeOutput(resp, asJSON, stdout, stderr)
	if !asJSON {
		if resp.Status == host.StatusOK {
			var pretty bytes.Buffer
			if json.Indent(&pretty, resp.Value, "", "  ") != nil {
				pretty.Write(resp.Value)
			}
			fmt.Fprintf(stdout, "%s\n", pretty.Bytes())
		} else {
			if resp.Traceback != "" {
				fmt.Fprintln(stderr, resp.Traceback)
			}
			line := ""
			if resp.Line > 0 {
				line = fmt.Sprintf(" (line %d)", resp.Line)
			}
			fmt.Fprintf(stderr, "%s%s\n", resp.Error, line)
		}
	}
	if err != nil {
		if errors.Is(err, host.ErrBadRequest) || errors.Is(err, host.ErrClosed) {
			return exitUsage
		}
		return exitProgram
	}
	return exitOK
}
