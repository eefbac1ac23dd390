package native

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spine-sandbox/spine/internal/lasting"
)

// serviceRequest and serviceResponse are one line each of the compile
// service's protocol (guest/native/service.py). Out is the module (in the
// cache's modules/), KeepSource where the generated C++ is kept (in private/).
type serviceRequest struct {
	ID         uint64 `json:"id"`
	Name       string `json:"name"`
	Source     string `json:"source"`
	Out        string `json:"out"`
	KeepSource string `json:"keep_source,omitempty"`
}

type serviceResponse struct {
	ID        *uint64  `json:"id"`
	OK        bool     `json:"ok"`
	Functions []string `json:"functions"`
	Ms        float64  `json:"ms"`
	Failure
}

// helper is one compile service process: one request at a time.
type helper struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	errs   *cappedBuffer
	tmp    string // its TMPDIR, in the cache's private/, removed with it
	next   uint64
	once   sync.Once
	killed atomic.Bool
}

const serviceLauncher = "import sys; sys.path.insert(0, sys.argv[1]); from native.service import main; main()"

// startHelper starts the compile service in its own user, network and IPC
// namespaces (no network at all: it processes untrusted source), with a tiny
// environment, as the leader of its own process group, which g++ and what
// g++ starts (cc1plus, as) inherit: killing the group ends them all. It dies
// with the host (Pdeathsig, from a thread that lives as long as the host:
// internal/lasting), and its watchdog then kills the rest of the group
// (service.py), so a host killed with SIGKILL leaves no compiler behind.
func startHelper(opts Options, private string) (*helper, error) {
	tmp, err := os.MkdirTemp(private, ".tmp-service-")
	if err != nil {
		return nil, fmt.Errorf("cannot start the compile service: %w", err)
	}
	h, err := spawnHelper(opts, tmp, true)
	if err != nil && opts.AllowNoNamespaces {
		h, err = spawnHelper(opts, tmp, false)
	} else if err != nil {
		err = fmt.Errorf("%w; set AllowNoNamespaces to run the compile service without its own namespaces", err)
	}
	if err != nil {
		os.RemoveAll(tmp)
	}
	return h, err
}

func spawnHelper(opts Options, tmp string, namespaces bool) (*helper, error) {
	cmd := exec.Command(opts.Python, "-I", "-S", "-B", "-c", serviceLauncher,
		PythonDir(opts.Toolchain), filepath.Join(opts.Toolchain, "include"))
	cmd.Dir = "/"
	// Everything it and g++ write in the making goes to TMPDIR, so what a
	// killed compilation leaves is removed with the directory.
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8", "TMPDIR=" + tmp, "CXX=" + opts.CXX}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if namespaces {
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	cmd.SysProcAttr = attr
	cmd.WaitDelay = time.Second // never wait long for a pipe a stray process still holds
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errs := &cappedBuffer{max: 4096}
	cmd.Stderr = errs
	if err := lasting.Start(cmd); err != nil {
		return nil, fmt.Errorf("cannot start the compile service: %w", err)
	}
	return &helper{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), errs: errs, tmp: tmp}, nil
}

// pid is the service's process ID, which is also its process group's.
func (h *helper) pid() int { return h.cmd.Process.Pid }

const maxResponseBytes = 1 << 20

// do sends one request and reads its answer within timeout.
func (h *helper) do(req serviceRequest, timeout time.Duration) (serviceResponse, error) {
	h.next++
	req.ID = h.next
	var resp serviceResponse
	line, err := json.Marshal(req)
	if err != nil {
		return resp, err
	}
	type answer struct {
		data []byte
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		if _, err := h.in.Write(append(line, '\n')); err != nil {
			done <- answer{nil, err}
			return
		}
		data, err := readLine(h.out, maxResponseBytes)
		done <- answer{data, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case a := <-done:
		if a.err != nil {
			h.kill()
			return resp, fmt.Errorf("the compile service failed: %v%s", a.err, h.diagnostics())
		}
		if err := json.Unmarshal(a.data, &resp); err != nil || resp.ID == nil || *resp.ID != req.ID {
			return resp, fmt.Errorf("the compile service answered out of protocol")
		}
		return resp, nil
	case <-timer.C:
		h.kill()
		<-done
		return resp, fmt.Errorf("compilation took longer than %v", timeout)
	}
}

func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > max {
			return nil, fmt.Errorf("an answer over %d bytes", max)
		}
		if err == nil {
			return line, nil
		}
		if err != bufio.ErrBufferFull {
			return nil, err
		}
	}
}

func (h *helper) diagnostics() string {
	if s := h.errs.String(); s != "" {
		return " (" + s + ")"
	}
	return ""
}

// kill ends the service and everything in its process group (g++, cc1plus,
// as, the watchdog), and removes what they were writing.
func (h *helper) kill() {
	h.once.Do(func() {
		h.killed.Store(true)
		syscall.Kill(-h.pid(), syscall.SIGKILL)
		h.in.Close()
		h.cmd.Wait()
		os.RemoveAll(h.tmp)
	})
}

// cappedBuffer keeps the first max bytes written to it.
type cappedBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (b *cappedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
