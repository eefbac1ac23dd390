// Package atomicfile writes a file so that a reader, in this process or
// another, sees either the old file or the whole new one, never a part.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data under a private temporary name in dir (mode 0600) and
// renames it to name.
func Write(dir, name string, data []byte) error {
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
