package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// replRequest is one line of `spine repl --json`.
type replRequest struct {
	Source string          `json:"source"`
	Inputs json.RawMessage `json:"inputs"`
	PLM    bool            `json:"plm"`
}

// repl runs programs one after another in one session: interactively (a
// prompt; a block ends at an empty line), or with --json one request object
// per line in, one response object per line out.
func repl(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spine repl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	var idle time.Duration
	fs.BoolVar(&f.demoTools, "demo-tools", false, "provide the demo tools echo, lookup, sleep, fail and emit")
	fs.StringVar(&f.manifest, "manifest", "", "JSON file of tool specs (as for spine run)")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "wall-clock limit of each execution")
	fs.StringVar(&f.isolation, "isolation", string(host.Sandbox), "where the session runs: sandbox (a child of its own) or inproc")
	fs.BoolVar(&f.asJSON, "json", false, `read one request per line ({"source": ..., "inputs": ..., "plm": ...}), write one response per line`)
	fs.BoolVar(&f.plm, "plm", false, "run every program with PLM")
	fs.DurationVar(&idle, "idle-timeout", 10*time.Minute, "end the session after this long without a program")
	f.native = string(host.NativeOff)
	if code, done := parseFlags(fs, args, "usage: spine repl [flags]", stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "spine repl: takes no arguments; programs come on stdin")
		return exitUsage
	}
	engine, err := newEngine(f)
	if err != nil {
		fmt.Fprintln(stderr, "spine repl:", err)
		return exitUsage
	}
	defer engine.Close()
	session, err := engine.Session(context.Background(), host.SessionOptions{IdleTimeout: idle})
	if err != nil {
		fmt.Fprintln(stderr, "spine repl:", err)
		return exitUsage
	}
	defer session.Close()
	if f.asJSON {
		return replJSON(session, f.plm, stdin, stdout)
	}
	return replPrompt(session, f.plm, stdin, stdout, stderr)
}

func replJSON(session *host.Session, plm bool, stdin io.Reader, stdout io.Writer) int {
	lines := bufio.NewScanner(stdin)
	lines.Buffer(nil, 16<<20)
	out := json.NewEncoder(stdout)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if line == "" {
			continue
		}
		var req replRequest
		if err := json.Unmarshal([]byte(line), &req); err != nil {
			out.Encode(map[string]string{"error": "bad request: " + err.Error()})
			continue
		}
		resp, err := session.Execute(context.Background(), host.Request{Source: req.Source, Inputs: req.Inputs, PLM: req.PLM || plm})
		if resp == nil {
			out.Encode(map[string]string{"error": err.Error()})
			if errors.Is(err, host.ErrSessionGone) {
				return exitProgram
			}
			continue
		}
		out.Encode(resp)
	}
	return exitOK
}

func replPrompt(session *host.Session, plm bool, stdin io.Reader, stdout, stderr io.Writer) int {
	lines := bufio.NewScanner(stdin)
	lines.Buffer(nil, 16<<20)
	var block []string
	fmt.Fprint(stderr, ">>> ")
	for lines.Scan() {
		line := lines.Text()
		// A line ending in ':' opens a block, which an empty line ends.
		if len(block) > 0 || strings.HasSuffix(strings.TrimSpace(line), ":") {
			if strings.TrimSpace(line) != "" {
				block = append(block, line)
				fmt.Fprint(stderr, "... ")
				continue
			}
		} else {
			block = append(block, line)
		}
		source := strings.Join(block, "\n") + "\n"
		block = nil
		if strings.TrimSpace(source) != "" {
			resp, err := session.Execute(context.Background(), host.Request{Source: source, PLM: plm})
			if resp == nil {
				fmt.Fprintln(stderr, err)
				if errors.Is(err, host.ErrSessionGone) {
					return exitProgram
				}
			} else {
				io.WriteString(stdout, resp.Stdout)
				io.WriteString(stderr, resp.Stderr)
				switch {
				case resp.Status != host.StatusOK:
					fmt.Fprintln(stderr, resp.Error)
				case string(resp.Value) != "null":
					fmt.Fprintf(stdout, "%s\n", resp.Value)
				}
			}
		}
		fmt.Fprint(stderr, ">>> ")
	}
	fmt.Fprintln(stderr)
	return exitOK
}
