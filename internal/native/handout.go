package native

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// A sandboxed child never opens anything of the cache: it is outside the
// child's root, and Landlock grants nothing there. The host hands it each
// module as a descriptor of a sealed in-memory copy (memfd), sent with the
// answer that says the module is ready; the child dlopens /proc/self/fd/N.
// A memfd, unlike a cache file reopened through /proc, is not checked
// against a path by Landlock, and sealed it cannot be changed by anyone
// holding it. The copy is the module's size, once per module an execution
// loads.

// HandleModules answers like Handle, but a ready unit names its module by
// "module", the index of its descriptor among the files returned, and
// never by its path. The caller sends the files with the answer and then
// closes them. A module that cannot be copied makes its unit fail, with the
// reason, and the execution goes on in Python.
func (s *Session) HandleModules(raw []byte) ([]byte, []*os.File) {
	units, err := s.answer(raw)
	if err != nil {
		return failure(err.Error()), nil
	}
	var files []*os.File
	for i := range units {
		u := &units[i]
		if u.Status != StatusReady || u.Path == "" {
			continue
		}
		if len(files) == protocol.NativeModulesPerAnswer {
			// The child takes no more descriptors with one answer: this module
			// goes with the next poll, which the guest sends at once.
			s.holdBack(u.Name)
			u.Status, u.Path, u.Cache, u.Held = StatusPending, "", "", true
			continue
		}
		f, err := sealedCopy(u.Path)
		if err != nil {
			u.Status, u.Failure = StatusFailed, &Failure{Kind: "service", Message: fmt.Sprintf("cannot hand the module over: %v", err)}
		} else {
			index := len(files)
			u.Module = &index
			files = append(files, f)
		}
		u.Path = ""
	}
	return encodeUnits(units), files
}

// memfd_create(2) flags, fcntl(2) sealing commands and seals.
const (
	mfdCloexec      = 0x1
	mfdAllowSealing = 0x2
	mfdExec         = 0x10 // since Linux 6.3; earlier kernels refuse it and need none
	fAddSeals       = 1033
	sealsOfAModule  = 0x1 | 0x2 | 0x4 | 0x8 // F_SEAL_SEAL, SHRINK, GROW, WRITE
	memfdModuleName = "spine-module"
)

// sealedCopy copies the module at path into a new memfd and seals it.
// The kernel copies it (sendfile: page cache to memfd, no buffer of ours),
// and the source is opened with a bare open(2): an *os.File would make it
// non-blocking and try to register it with the poller, and io.Copy would
// try copy_file_range (refused across file systems), then read and write
// through a 32 KiB buffer; four system calls and an allocation more per
// module in every execution that loads one.
func sealedCopy(path string) (*os.File, error) {
	src, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(src)
	fd, err := memfdCreate(memfdModuleName, mfdCloexec|mfdAllowSealing|mfdExec)
	if errors.Is(err, syscall.EINVAL) {
		fd, err = memfdCreate(memfdModuleName, mfdCloexec|mfdAllowSealing)
	}
	if err != nil {
		return nil, fmt.Errorf("memfd_create: %w", err)
	}
	f := os.NewFile(uintptr(fd), memfdModuleName)
	if err := copyAll(fd, src); err != nil {
		f.Close()
		return nil, fmt.Errorf("copying %s: %w", path, err)
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), fAddSeals, sealsOfAModule); errno != 0 {
		f.Close()
		return nil, fmt.Errorf("sealing the copy: %w", errno)
	}
	return f, nil
}

// copyAll copies src from its offset to its end into dst with sendfile(2),
// whatever the file's size when the copy starts.
func copyAll(dst, src int) error {
	for {
		n, err := syscall.Sendfile(dst, src, nil, 1<<30)
		switch {
		case err == syscall.EINTR || err == syscall.EAGAIN:
		case err != nil:
			return err
		case n == 0:
			return nil
		}
	}
}

func memfdCreate(name string, flags uintptr) (int, error) {
	if sysMemfdCreate < 0 {
		return -1, syscall.ENOSYS
	}
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	fd, _, errno := syscall.Syscall(uintptr(sysMemfdCreate), uintptr(unsafe.Pointer(p)), flags, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}
