package native

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"syscall"
	"testing"
)

// A sandboxed child gets its module as a sealed copy, never the cache path:
// the answer names the file by index, the file holds the module's bytes,
// and nobody holding it can change them.
func TestHandleModulesGivesASealedCopyNotThePath(t *testing.T) {
	c := newCompiler(t, Options{})
	s := c.Session(context.Background(), "eager")
	start := `{"op": "start", "units": [{"name": "f", "source": ` + jsonString(source("f", 2)) + `}]}`
	answer, files := s.HandleModules([]byte(start))
	for _, f := range files {
		defer f.Close()
	}
	var got struct {
		Units []map[string]any `json:"units"`
	}
	if err := json.Unmarshal(answer, &got); err != nil || len(got.Units) != 1 || len(files) != 1 {
		t.Fatalf("answer %s with %d files", answer, len(files))
	}
	u := got.Units[0]
	if u["status"] != StatusReady || u["module"] != float64(0) || u["path"] != nil {
		t.Fatalf("unit %v: want ready, module 0 and no path", u)
	}
	want, err := os.ReadFile(c.modulePath(key(c.ident, "f", source("f", 2))))
	if err != nil {
		t.Fatal(err)
	}
	copied := make([]byte, len(want)+1)
	n, _ := files[0].ReadAt(copied, 0)
	if !bytes.Equal(copied[:n], want) {
		t.Fatalf("the copy holds %d bytes, not the module's %d", n, len(want))
	}
	if _, err := files[0].WriteAt([]byte{0}, 0); !errors.Is(err, syscall.EPERM) {
		t.Fatalf("writing into the sealed copy: %v (want EPERM)", err)
	}
	if err := files[0].Truncate(0); !errors.Is(err, syscall.EPERM) {
		t.Fatalf("truncating the sealed copy: %v (want EPERM)", err)
	}
	if _, err := files[0].WriteAt([]byte{0}, int64(len(want))); !errors.Is(err, syscall.EPERM) {
		t.Fatalf("growing the sealed copy: %v (want EPERM)", err)
	}
	// Every seal is on, the seal against more seals too: nobody can lift them.
	const fGetSeals = 1034
	if seals, _, errno := syscall.Syscall(syscall.SYS_FCNTL, files[0].Fd(), fGetSeals, 0); errno != 0 || seals != sealsOfAModule {
		t.Fatalf("seals %#x (%v), want %#x", seals, errno, sealsOfAModule)
	}
	// A copy, not the cache's file: rewriting the file does not reach it.
	if err := os.WriteFile(c.modulePath(key(c.ident, "f", source("f", 2))), []byte("rewritten"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, _ = files[0].ReadAt(copied, 0); !bytes.Equal(copied[:n], want) {
		t.Fatalf("the copy changed with the cache's file: %d bytes", n)
	}
	// In process the answer names the path, and no file is made.
	in := c.Session(context.Background(), "eager")
	var inproc struct {
		Units []answerUnit `json:"units"`
	}
	if err := json.Unmarshal(in.Handle([]byte(start)), &inproc); err != nil || len(inproc.Units) != 1 ||
		inproc.Units[0].Path == "" || inproc.Units[0].Module != nil {
		t.Fatalf("in-process answer %+v (%v)", inproc, err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
