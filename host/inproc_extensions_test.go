package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// The in-process interpreter is linked from the static libpython
// (internal/bridge/inproc/libpython.go): every extension module of
// lib-dynload resolves its Py* symbols from the host executable. A missing
// export fails that module's import ("undefined symbol"), so the program
// imports every one python3 can, uses the common ones, and must answer
// exactly what /usr/bin/python3 answers. (The sandbox's imports are
// TestSandboxImportsEveryAllowedStdlibModule.)
const extensionsProgram = `import os, sys, importlib
names = sorted(f.split('.')[0] for f in os.listdir('/usr/lib/python3.11/lib-dynload') if f.endswith('.so'))
# Modules that would touch the test process's terminal when imported.
names = [n for n in names if n not in ('readline', '_curses', '_curses_panel')]
imported = {}
for name in names:
    try:
        importlib.import_module(name)
        imported[name] = 'ok'
    except Exception as error:
        imported[name] = type(error).__name__ + ': ' + str(error)
import decimal, sqlite3, zoneinfo, json, lzma, bz2, hashlib, datetime
db = sqlite3.connect(':memory:')
db.execute('create table t (x)')
db.executemany('insert into t values (?)', [(i,) for i in range(10)])
utc = datetime.datetime(2024, 7, 1, 12, tzinfo=datetime.timezone.utc)
result = {
    'imported': imported,
    'decimal': str(decimal.Decimal(1) / decimal.Decimal(7)),
    'sqlite': db.execute('select sum(x) from t').fetchone()[0],
    'zoneinfo': utc.astimezone(zoneinfo.ZoneInfo('Europe/Paris')).isoformat(),
    'lzma': len(lzma.decompress(lzma.compress(b'spine' * 100))),
    'bz2': bz2.decompress(bz2.compress(b'spine')).decode(),
    'sha256': hashlib.sha256(b'spine').hexdigest()[:16],
    'json': json.loads('{"a": [1, 2.5]}'),
}
`

func TestInprocLoadsEveryExtensionModuleLikePython3(t *testing.T) {
	cmd := exec.Command("/usr/bin/python3", "-I", "-c", extensionsProgram+"\nimport json\nprint(json.dumps(result))")
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var reference struct{ Imported map[string]string }
	if err := json.Unmarshal(want, &reference); err != nil || len(reference.Imported) < 30 || reference.Imported["_decimal"] != "ok" {
		t.Fatalf("python3's reference is not what this test expects: %v %s", err, want)
	}
	e := newEngine(t, host.WithLimits(host.Limits{Timeout: 20 * time.Second}))
	resp, err := e.Execute(context.Background(), host.Request{Source: extensionsProgram})
	if err != nil {
		t.Fatalf("in process: %v (%s)", err, errorOf(resp))
	}
	var got, expected bytes.Buffer
	json.Compact(&got, resp.Value)
	json.Compact(&expected, want)
	if got.String() != expected.String() {
		t.Fatalf("in process:\n%s\npython3:\n%s", got.String(), expected.String())
	}
}
