// Package mcptest builds and runs the upstream MCP server of the tests and
// benchmarks (internal/mcp/testdata/upstream): a real server on the
// official Go SDK, over stdio or streamable HTTP.
package mcptest

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// Upstream builds the upstream server once per test binary and returns its
// path.
func Upstream(t testing.TB) string {
	t.Helper()
	path, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// Build builds the upstream server (once per process) with the go tool and
// returns its path. The binary is named after a digest of its source and
// the module's go.sum and kept in the temporary directory, so test binaries
// share it and a changed source gets a new one; it is renamed into place,
// so concurrent builds never expose half a file.
func Build() (string, error) {
	buildOnce.Do(func() { binary, buildErr = build() })
	return binary, buildErr
}

func build() (string, error) {
	_, here, _, _ := runtime.Caller(0)
	source := filepath.Join(filepath.Dir(here), "..", "testdata", "upstream")
	digest := sha256.New()
	for _, file := range []string{filepath.Join(source, "main.go"), filepath.Join(source, "..", "..", "..", "..", "go.sum")} {
		data, err := os.ReadFile(file)
		if err != nil {
			return "", err
		}
		digest.Write(data)
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("spine-mcp-upstream-%d", os.Getuid()))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("upstream-%x", digest.Sum(nil)[:8]))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	partial := fmt.Sprintf("%s.%d", path, os.Getpid())
	cmd := exec.Command("go", "build", "-o", partial, ".")
	cmd.Dir = source
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the upstream MCP server: %v\n%s", err, out)
	}
	return path, os.Rename(partial, path)
}

// StdioConfig is an mcpServers configuration with the upstream as the
// stdio server named name.
func StdioConfig(t testing.TB, name string) []byte {
	return StdioConfigOf(Upstream(t), name)
}

// StdioConfigOf is StdioConfig for the upstream binary at path.
func StdioConfigOf(path, name string) []byte {
	return Config(map[string]any{name: map[string]any{"command": path}})
}

// Config encodes servers as an mcpServers configuration.
func Config(servers map[string]any) []byte {
	encoded, _ := json.Marshal(map[string]any{"mcpServers": servers})
	return encoded
}

// HTTPServer is the upstream served over streamable HTTP.
type HTTPServer struct {
	URL  string
	cmd  *exec.Cmd
	addr string
}

// ServeHTTP starts the upstream on addr ("127.0.0.1:0" picks a port) and
// requiring "Authorization: Bearer token" when token is set; it is killed
// when the test ends.
func ServeHTTP(t testing.TB, addr, token string) *HTTPServer {
	t.Helper()
	cmd := exec.Command(Upstream(t), "-http", addr)
	cmd.Env = append(os.Environ(), "UPSTREAM_TOKEN="+token)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &HTTPServer{cmd: cmd}
	t.Cleanup(func() { s.Kill() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the upstream HTTP server printed no URL: %v", err)
	}
	s.URL = strings.TrimSpace(line)
	s.addr = strings.TrimSuffix(strings.TrimPrefix(s.URL, "http://"), "/mcp")
	return s
}

// Addr is the host:port it listens on.
func (s *HTTPServer) Addr() string { return s.addr }

// Kill stops the server (if still running) and waits for it.
func (s *HTTPServer) Kill() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// Wait waits for the server to exit by itself.
func (s *HTTPServer) Wait() error { return s.cmd.Wait() }
