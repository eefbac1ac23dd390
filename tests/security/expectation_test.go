package security

import (
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// A header that cannot be read exactly fails the program's test: these
// must all be refused, never run with a weaker expectation.
func TestSecurityHeaderRefusesMalformedExpectations(t *testing.T) {
	for name, source := range map[string]string{
		"error without a type":      "# expect: error\n# why\n",
		"unknown status":            "# expect: ok-no-secret\n# why\n",
		"expect not first":          "# Read a file.\n# expect: error PermissionError\n",
		"unknown key":               "# expect: ok\n# dedline: 2s\n# why\n",
		"key after the description": "# expect: timeout\n# why\n# deadline: 5s\n",
		"repeated key":              "# expect: ok\n# mode: plm\n# mode: stream\n# why\n",
		"bad mode":                  "# expect: ok\n# mode: fast\n# why\n",
		"bad deadline":              "# expect: timeout\n# deadline: soon\n# why\n",
		"bad native":                "# expect: ok\n# native: always\n# why\n",
		"value not JSON":            "# expect: ok\n# value: {nope\n# why\n",
		"value for an error":        "# expect: error ValueError\n# value: 1\n# why\n",
		"bad rss bound":             "# expect: limit\n# host-rss-mib: -3\n# why\n",
		"three words":               "# expect: error ValueError extra\n# why\n",
		"not a type":                "# expect: error Value-Error\n# why\n",
		"no description":            "# expect: ok\nresult = 1\n",
		"no header":                 "result = 1\n",
	} {
		if x, err := Parse([]byte(source)); err == nil {
			t.Errorf("%s: accepted as %+v", name, x)
		}
	}
}

func TestSecurityHeaderReadsEveryKey(t *testing.T) {
	x, err := Parse([]byte("# expect: ok\n# mode: stream\n# deadline: 5s\n# native: auto\n" +
		"# value: {\"a\": [1, 2.0]}\n# host-rss-mib: 64\n# The attack, and why: it must fail.\nresult = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	// The value is kept as written, so the runner compares 2.0 as a float.
	if x.Status != host.StatusOK || x.Exception != "" || x.Mode != "stream" || x.Deadline != 5*time.Second ||
		x.Native != host.NativeAuto || x.RSSMiB != 64 || string(x.Value) != `{"a": [1, 2.0]}` {
		t.Fatalf("%+v", x)
	}
	x, err = Parse([]byte("# expect: error PermissionError\n# Read a host file.\n"))
	if err != nil || x.Status != host.StatusError || x.Exception != "PermissionError" || x.Mode != "plain" ||
		x.Deadline != 2*time.Second || x.Native != "" || x.Value != nil {
		t.Fatalf("%+v %v", x, err)
	}
}
