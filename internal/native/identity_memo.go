package native

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/spine-sandbox/spine/internal/atomicfile"
)

// Hashing every byte of the toolchain (tens of MiB with the libraries' debug
// information) and asking g++ who it is took 18-100 ms of every process that
// enables native code, before it could look a single module up: most of what
// `spine run --native eager` cost over `--native off` with every module
// cached. The identity is therefore computed once per state of the toolchain
// and remembered in the cache's private part, under a fingerprint of the
// metadata of every file it covers. The fingerprint takes each file's size,
// modification and change times (ns) and inode, as Go's and make's caches
// trust a file's metadata: rewriting a file, renaming another into its place
// or installing a new g++ changes its change time or inode, which nobody can
// set back. The processor is told apart every time, by CPUID where there is
// one (cpuFingerprint).
//
// An installed toolchain carries a stamp (stampFile) that every install
// writes anew, as its last step: its metadata alone stands for the state of
// the whole toolchain, one stat instead of walking and statting the ~113
// files (0.5 ms of CPU, 1.3 ms of wall time per process on a loaded 2-core
// machine). That trusts what an install is: a toolchain changed in place
// without reinstalling keeps its stamp and so its remembered identity; `make
// native` always reinstalls. A toolchain without a stamp (one assembled by
// hand) is fingerprinted file by file.
const identityDir = "identity"

// stampFile, at the toolchain's root, is rewritten by every install
// (cmake/native_toolchain.cmake) and left out of the identity itself, so a
// reinstall of the same files keeps every cache key.
const stampFile = "toolchain.stamp"

// rememberedIdentity is identity(toolchain, cxx), read from the cache when
// this state of the toolchain and compiler was seen before. A memo that is
// missing or unreadable is computed again and rewritten.
func rememberedIdentity(private, toolchain, cxx string) (string, error) {
	fingerprint, err := identityFingerprint(toolchain, cxx)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(private, identityDir)
	if data, err := os.ReadFile(filepath.Join(dir, fingerprint)); err == nil && isIdentity(string(data)) {
		return string(data), nil
	}
	// The toolchain is checked for its pieces only here: a remembered
	// identity is of a state that had them all (without a stamp, a missing
	// file is a new state; with one, what an install left).
	if err := checkToolchain(toolchain); err != nil {
		return "", err
	}
	ident, err := identity(toolchain, cxx)
	if err != nil {
		return "", err
	}
	// Best effort: a cache that cannot keep the memo costs time, not answers.
	if os.MkdirAll(dir, 0o700) == nil {
		atomicfile.Write(dir, fingerprint, []byte(ident))
	}
	return ident, nil
}

// identityFingerprint hashes the metadata of the toolchain's stamp, or of
// every file identity reads where there is none, of the C++ compiler's
// file, the CPU and the architecture.
func identityFingerprint(toolchain, cxx string) (string, error) {
	h := sha256.New()
	io.WriteString(h, "spine native identity fingerprint v3\n")
	err := writeStat(h, "stamp", filepath.Join(toolchain, stampFile), os.Lstat)
	if errors.Is(err, fs.ErrNotExist) {
		err = walkToolchain(toolchain, func(rel, path string) error {
			return writeStat(h, "file "+rel, path, os.Lstat)
		})
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the native toolchain: %w", err)
	}
	// The compiler's own file, whatever links lead to it (g++ -> g++-12 ->
	// x86_64-linux-gnu-g++-12): another version installed, or a link
	// pointed elsewhere, is another file, another inode.
	if err := writeStat(h, "cxx "+cxx, cxx, os.Stat); err != nil {
		return "", fmt.Errorf("the C++ compiler %s: %w", cxx, err)
	}
	fmt.Fprintf(h, "arch %s\n%s", runtime.GOARCH, cpuFingerprint())
	return hex.EncodeToString(h.Sum(nil)), nil
}

func writeStat(w io.Writer, label, path string, stat func(string) (os.FileInfo, error)) error {
	info, err := stat(path)
	if err != nil {
		return err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("no file metadata for %s", path)
	}
	_, err = fmt.Fprintf(w, "%s\x00%o %d %d %d.%d %d.%d\n", label, info.Mode(), info.Size(), st.Ino,
		st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
	return err
}

func isIdentity(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
