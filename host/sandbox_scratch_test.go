package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// Each execution works in its own scratch directory: its working directory
// and /tmp, where files are written, listed, renamed and removed. Modes and
// times are not a program's to change (PermissionError): Landlock does not
// govern them, so they would reach other executions' directories too.
func TestSandboxScratchDirectoryIsTheWorkingDirectoryAndTmp(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 10 * time.Second}))
	src := `import os, pathlib, tempfile, shutil, sqlite3
pathlib.Path('notes.txt').write_text('one\n')
with open('/tmp/more.txt', 'w') as f:
    f.write('two\n')
os.mkdir('sub')
os.rename('more.txt', 'sub/more.txt')
shutil.copyfile('notes.txt', 'sub/copy.txt')
try:
    os.chmod('notes.txt', 0o600)
    chmod = 'changed'
except PermissionError:
    chmod = 'refused'
with tempfile.TemporaryDirectory() as d:
    inner = os.path.isdir(d)
db = sqlite3.connect('scratch.db')
db.execute('create table t (x)')
db.execute('insert into t values (42)')
db.commit()
os.remove('sub/copy.txt')
result = {'cwd': os.path.dirname(os.getcwd()), 'ls': sorted(os.listdir('.')), 'sub': os.listdir('sub'),
          'read': open('sub/more.txt').read(), 'tempdir': tempfile.gettempdir(), 'inner': inner,
          'db': db.execute('select x from t').fetchall(), 'chmod': chmod}`
	resp, err := e.Execute(context.Background(), host.Request{Source: src})
	if err != nil {
		t.Fatalf("%v %+v", err, resp)
	}
	want := `{"cwd": "/scratch", "ls": ["notes.txt", "scratch.db", "sub"], "sub": ["more.txt"], "read": "two\n", "tempdir": "/tmp", "inner": true, "db": [[42]], "chmod": "refused"}`
	if string(resp.Value) != want {
		t.Fatalf("got %s\nwant %s", resp.Value, want)
	}
}

// The files of one execution are gone when it ends: no later execution
// finds them in its own directory, nor reads them where they were.
func TestSandboxScratchFilesAreInvisibleToTheNextExecution(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 10 * time.Second}))
	first, err := e.Execute(context.Background(), host.Request{Source: "import os\nopen('mine.txt', 'w').write('private')\nresult = os.getcwd()"})
	if err != nil || !strings.HasPrefix(string(first.Value), `"/scratch/`) {
		t.Fatalf("%v %+v", err, first)
	}
	var dir string
	json.Unmarshal(first.Value, &dir)
	probe := `import os
try:
    seen = open(` + string(first.Value) + ` + '/mine.txt').read()
except OSError as e:
    seen = type(e).__name__
result = {'here': os.listdir('.'), 'there': seen, 'same': os.getcwd() == ` + string(first.Value) + `}`
	sameSlot := false
	for i := 0; i < 8; i++ {
		resp, err := e.Execute(context.Background(), host.Request{Source: probe})
		if err != nil {
			t.Fatalf("%v %+v", err, resp)
		}
		var got struct {
			Here  []string
			There string
			Same  bool
		}
		if err := json.Unmarshal(resp.Value, &got); err != nil {
			t.Fatal(err)
		}
		// In the same slot the file is gone; from another, it is not ours.
		if len(got.Here) != 0 || (got.Same && got.There != "FileNotFoundError") || (!got.Same && got.There != "PermissionError" && got.There != "FileNotFoundError") {
			t.Fatalf("execution %d after %s: %s", i, dir, resp.Value)
		}
		sameSlot = sameSlot || got.Same
	}
	if !sameSlot {
		t.Fatalf("no later execution got slot %s back: emptying it was never exercised", dir)
	}
}
