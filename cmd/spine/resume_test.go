package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSuspendsAndResumeContinues: a manifest tool needing approval stops
// the run (exit 3, journal written); `spine resume --approve` runs it once,
// in another engine, and the program finishes.
func TestRunSuspendsAndResumeContinues(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "sent.log")
	manifest := writeFile(t, "tools.json", `[{"name": "send", "approval": true,
		"command": ["sh", "-c", "cat >> `+log+`; echo; echo '\"ok\"'"]}]`)
	program := writeFile(t, "p.py", "print('drafting')\nr = send(to='bob')\nresult = ['sent', r]\n")
	journal := filepath.Join(dir, "run.journal")
	code, out, errOut := cli(t, "", "run", "--manifest", manifest, "--journal", journal, program)
	if code != exitSuspend || out != "drafting\n" || !strings.Contains(errOut, `suspended at send({"to":"bob"})`) {
		t.Fatalf("run: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(log); !os.IsNotExist(err) {
		t.Fatalf("the tool ran before approval: %v", err)
	}
	code, out, errOut = cli(t, "", "resume", journal, "--approve", "--manifest", manifest)
	if code != exitOK || out != "drafting\n[\n  \"sent\",\n  \"ok\"\n]\n" {
		t.Fatalf("resume: %d %q %q", code, out, errOut)
	}
	if data, _ := os.ReadFile(log); string(data) != `{"to":"bob"}` {
		t.Fatalf("the tool ran %q, want once", data)
	}
}

func TestResumeDenyAndAnswerAndRequireApproval(t *testing.T) {
	source := "try:\n    v = lookup(key=2)\nexcept PermissionError as e:\n    v = str(e)\nresult = v\n"
	for _, c := range []struct {
		decision []string
		want     string
	}{
		{[]string{"--deny", "no lookups today"}, `"no lookups today"`},
		{[]string{"--answer", `{"fixed": 1}`}, "{\n  \"fixed\": 1\n}"},
		{[]string{"--approve"}, "14"},
	} {
		journal := filepath.Join(t.TempDir(), "j.json")
		code, _, errOut := cli(t, source, "run", "--demo-tools", "--isolation", "inproc", "--require-approval", "lookup",
			"--journal", journal, "-")
		if code != exitSuspend {
			t.Fatalf("run: %d %s", code, errOut)
		}
		args := append([]string{"resume", journal, "--demo-tools", "--isolation", "inproc"}, c.decision...)
		code, out, errOut := cli(t, "", args...)
		if code != exitOK || strings.TrimSpace(out) != c.want {
			t.Errorf("%v: %d %q %q", c.decision, code, out, errOut)
		}
	}
	journal := filepath.Join(t.TempDir(), "j.json")
	cli(t, source, "run", "--demo-tools", "--require-approval", "lookup", "--journal", journal, "-")
	if code, _, errOut := cli(t, "", "resume", journal, "--approve"); code != exitUsage || !strings.Contains(errOut, `unknown tool "lookup"`) {
		t.Errorf("resumed with other tools: %d %s", code, errOut)
	}
	if code, _, _ := cli(t, "", "resume", journal); code != exitUsage {
		t.Errorf("resume without a decision: %d", code)
	}
}
