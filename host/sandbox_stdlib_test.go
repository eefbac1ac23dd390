package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// Submodules programs import by their dotted name, besides every top-level
// module of the standard library.
var stdlibSubmodules = []string{
	"xml.etree.ElementTree", "xml.dom.minidom", "xml.sax", "html.parser", "email.message",
	"email.mime.text", "email.utils", "concurrent.futures", "logging.handlers", "urllib.parse",
	"collections.abc", "importlib.resources", "http.client", "dbm.dumb", "dbm.ndbm",
}

// allowedModules lists the standard modules /usr/bin/python3 can import
// that guest/sandbox_policy.py does not refuse: what a sandboxed program
// must be able to import. The refused ones come back separately.
func allowedModules(t *testing.T) (allowed, refused []string) {
	t.Helper()
	script := `import sys, json, importlib.util
sys.path.insert(0, 'guest')
import sandbox_policy
names = sorted(set(sys.stdlib_module_names) | set(sys.argv[1:]))
def present(n):
    try:
        return importlib.util.find_spec(n) is not None
    except ImportError:
        return False
out = {'allowed': [], 'refused': []}
for n in names:
    if n == '__main__' or not present(n):
        continue
    out['refused' if sandbox_policy.refusal(n) else 'allowed'].append(n)
print(json.dumps(out))`
	cmd := exec.Command("/usr/bin/python3", append([]string{"-I", "-c", script}, stdlibSubmodules...)...)
	cmd.Dir = ".."
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("listing the standard modules: %v", err)
	}
	var lists struct{ Allowed, Refused []string }
	if err := json.Unmarshal(data, &lists); err != nil {
		t.Fatal(err)
	}
	return lists.Allowed, lists.Refused
}

// Every standard module the policy does not refuse imports in a real
// sandbox child, and every one it refuses raises ImportError there.
func TestSandboxImportsEveryAllowedStdlibModule(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 20 * time.Second}))
	allowed, refused := allowedModules(t)
	if len(allowed) < 150 || len(refused) < 40 {
		t.Fatalf("suspicious lists: %d allowed, %d refused", len(allowed), len(refused))
	}
	for _, name := range allowed {
		t.Run(name, func(t *testing.T) {
			src := fmt.Sprintf("import %s\nresult = %q", name, name)
			resp, err := e.Execute(context.Background(), host.Request{Source: src})
			if err != nil || resp.Status != host.StatusOK || string(resp.Value) != fmt.Sprintf("%q", name) {
				t.Fatalf("import %s: %v %+v", name, err, resp)
			}
		})
	}
	for _, name := range refused {
		t.Run("refused/"+name, func(t *testing.T) {
			resp, _ := e.Execute(context.Background(), host.Request{Source: "import " + name})
			want := fmt.Sprintf("ImportError: module %q is not available in the sandbox", name)
			want = strings.ReplaceAll(want, `"`, "'")
			if resp == nil || resp.Status != host.StatusError || !strings.HasPrefix(resp.Error, want) {
				t.Fatalf("import %s: %+v, want %s", name, resp, want)
			}
		})
	}
}

// The zygote loads only crypt's extension (its library is outside a
// child's root); `crypt` itself, whose import probes every hashing method,
// is imported by the program in its own child and hashes as python3 does.
func TestSandboxCryptImportedByTheProgramHashesAsPython3(t *testing.T) {
	e := newSandboxEngine(t, host.WithLimits(host.Limits{Timeout: 20 * time.Second}))
	src := "import warnings\nwarnings.simplefilter('ignore')\nimport crypt\n" +
		"result = [m.name for m in crypt.methods] + [crypt.crypt('spine', '$6$saltsalt$'), crypt.crypt('spine', '$5$saltsalt$')]"
	out, err := exec.Command("/usr/bin/python3", "-I", "-c", src+"\nimport json\nprint(json.dumps(result))").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	if err := json.Unmarshal(out, &want); err != nil || len(want) < 3 || want[0] != "SHA512" {
		t.Fatalf("python3 answered %s (%v)", out, err)
	}
	resp, err := e.Execute(context.Background(), host.Request{Source: src})
	if err != nil || resp.Status != host.StatusOK {
		t.Fatalf("%v %+v", err, resp)
	}
	if err := json.Unmarshal(resp.Value, &got); err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("sandbox answered %s, python3 %s", resp.Value, out)
	}
}
