package mcp

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// process is a stdio server's process. The engine owns its pipes (plain OS
// pipes, not exec's copying ones) so the SDK reads every byte the server
// wrote before it exited, and its own Wait records how it ended: the error
// a program sees names the exit status and the last lines of stderr.
type process struct {
	cmd    *exec.Cmd
	stderr *tail
	exited chan struct{} // closed once Wait returned
	err    error         // Wait's result, set before exited closes
}

// stopGrace is how long a server has to exit after its stdin closes before
// it is killed.
const stopGrace = 2 * time.Second

func startProcess(cfg ServerConfig) (*process, sdk.Transport, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cfg.Dir
	cmd.Env = os.Environ()
	for key, value := range cfg.Env {
		cmd.Env = append(cmd.Env, key+"="+value)
	}
	p := &process{cmd: cmd, stderr: &tail{limit: 4096}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second // a grandchild holding stderr open never stalls Wait
	toServer, serverStdin, err := pipe()
	if err != nil {
		return nil, nil, err
	}
	serverStdout, fromServer, err := pipe()
	if err != nil {
		toServer.Close()
		serverStdin.Close()
		return nil, nil, err
	}
	cmd.Stdin, cmd.Stdout = toServer, fromServer
	err = cmd.Start()
	toServer.Close() // the child's ends: only the child holds them now
	fromServer.Close()
	if err != nil {
		serverStdin.Close()
		serverStdout.Close()
		return nil, nil, fmt.Errorf("cannot start %q: %w", cfg.Command, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, &sdk.IOTransport{Reader: serverStdout, Writer: &stopOnClose{File: serverStdin, p: p}}, nil
}

// pipe returns the read and write ends of an OS pipe.
func pipe() (*os.File, *os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot make a pipe: %w", err)
	}
	return r, w, nil
}

// stopOnClose is the server's stdin: closing it is how MCP asks a stdio
// server to stop; one that does not within stopGrace is killed.
type stopOnClose struct {
	*os.File
	p *process
}

func (s *stopOnClose) Close() error {
	err := s.File.Close()
	s.p.stop()
	return err
}

// stop waits stopGrace for the process to exit, then kills it.
func (p *process) stop() {
	select {
	case <-p.exited:
	case <-time.After(stopGrace):
		p.cmd.Process.Kill()
		<-p.exited
	}
}

// ended says how the process ended, if it has within wait.
func (p *process) ended(wait time.Duration) (string, bool) {
	select {
	case <-p.exited:
	case <-time.After(wait):
		return "", false
	}
	how := "exited"
	if p.err != nil {
		how = "exited (" + p.err.Error() + ")"
	}
	if last := p.stderr.lastLine(); last != "" {
		how += fmt.Sprintf("; its stderr ends: %q", last)
	}
	return how, true
}

// kill ends the process at once (a server the engine gives up on).
func (p *process) kill() {
	p.cmd.Process.Kill()
}

// tail keeps the last bytes a server wrote to stderr.
type tail struct {
	mu    sync.Mutex
	limit int
	data  []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.data = append(t.data, b...)
	if over := len(t.data) - t.limit; over > 0 {
		t.data = append(t.data[:0], t.data[over:]...)
	}
	return len(b), nil
}

func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.data)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
