package main

import (
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

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// journalFlags are the flags of a run that may stop for approval.
func journalFlags(fs *flag.FlagSet, f *runFlags) {
	fs.Var((*stringList)(&f.approval), "require-approval", "TOOL: stop the run at every call of TOOL until it is approved (repeatable; a --manifest spec may say \"approval\": true); exit status 3")
	fs.StringVar(&f.journal, "journal", "", "FILE: where a run that stops for approval writes its journal, for spine resume")
}

// suspendedExit reports a run that stopped for a decision and writes its
// journal: exit status 3.
func suspendedExit(resp *host.Response, path string, asJSON bool, stdout, stderr io.Writer) int {
	if path == "" {
		fmt.Fprintf(stderr, "spine: %s\nspine: no --journal FILE was given, so the run cannot be resumed\n", resp.Error)
		return exitSuspend
	}
	if err := host.WriteJournal(path, resp.Journal); err != nil {
		fmt.Fprintln(stderr, "spine:", err)
		return exitUsage
	}
	writeOutput(resp, asJSON, stdout, stderr)
	pending := resp.Journal.Pending
	fmt.Fprintf(stderr, "spine: suspended at %s(%s); journal written to %s\nspine: continue with: spine resume %s --approve | --deny MSG | --answer JSON\n",
		pending.Tool, pending.Args, path, path)
	return exitSuspend
}

// resume continues a suspended run from its journal file; suspended again,
// it rewrites the file with the new journal.
func resume(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spine resume", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	var decisions []host.Decision
	fs.BoolFunc("approve", "run the pending call", func(string) error {
		decisions = append(decisions, host.Approve())
		return nil
	})
	fs.Func("deny", "MSG: the pending call raises PermissionError(MSG) where the program made it", func(message string) error {
		decisions = append(decisions, host.Deny(message))
		return nil
	})
	fs.Func("answer", "JSON: the pending call returns this value; its tool does not run", func(value string) error {
		if !json.Valid([]byte(value)) {
			return errors.New("not a JSON value")
		}
		decisions = append(decisions, host.Answer(json.RawMessage(value)))
		return nil
	})
	fs.BoolVar(&f.demoTools, "demo-tools", false, "provide the demo tools (as the suspended run had them)")
	fs.StringVar(&f.manifest, "manifest", "", "JSON file of tool specs (as the suspended run had them)")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "wall-clock limit of the resumed execution")
	fs.StringVar(&f.isolation, "isolation", string(host.Sandbox), "where the guest runs: sandbox or inproc")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object with the whole response")
	f.native = string(host.NativeOff)
	// The journal file may come before the flags.
	var path string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		path, args = args[0], args[1:]
	}
	if code, done := parseFlags(fs, args, "usage: spine resume FILE --approve|--deny MSG|--answer JSON [flags]", stderr); done {
		return code
	}
	if path == "" && fs.NArg() == 1 {
		path = fs.Arg(0)
	} else if path == "" || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "spine resume: exactly one journal FILE is required")
		return exitUsage
	}
	if len(decisions) != 1 {
		fmt.Fprintln(stderr, "spine resume: give exactly one of --approve, --deny MSG, --answer JSON")
		return exitUsage
	}
	journal, err := host.ReadJournal(path, path)
	if err != nil {
		fmt.Fprintln(stderr, "spine resume:", err)
		return exitUsage
	}
	engine, err := newEngine(f, oneExecution)
	if err != nil {
		fmt.Fprintln(stderr, "spine resume:", err)
		return exitUsage
	}
	defer engine.Close()
	resp, err := engine.Resume(context.Background(), journal, decisions[0])
	if errors.Is(err, host.ErrSuspended) {
		return suspendedExit(resp, path, f.asJSON, stdout, stderr)
	}
	return report(resp, err, f.asJSON, stdout, stderr)
}
