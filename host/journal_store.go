package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// JournalStore keeps the journals of suspended executions, so that a
// service can suspend many runs and resume them after a restart, on this
// machine or another one that reads the same store.
type JournalStore interface {
	// Put stores a journal under id, replacing one stored before.
	Put(ctx context.Context, id string, journal *Journal) error
	// Get returns the journal stored under id; ErrJournalNotFound if none.
	Get(ctx context.Context, id string) (*Journal, error)
	// Delete forgets the journal stored under id (nothing if none).
	Delete(ctx context.Context, id string) error
	// List returns the ids of the stored journals, sorted.
	List(ctx context.Context) ([]string, error)
}

// ErrJournalNotFound: no journal is stored under the id.
var ErrJournalNotFound = errors.New("spine: journal not found")

// FileJournalStore keeps each journal as an id.json file in one directory.
// A journal is written to a temporary file, synced and renamed, so a crash
// leaves either the old journal or the new one, never a torn file.
type FileJournalStore struct {
	dir string
}

// NewFileJournalStore opens (creating it if needed) a store in dir.
func NewFileJournalStore(dir string) (*FileJournalStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("spine: journal store: %w", err)
	}
	return &FileJournalStore{dir: dir}, nil
}

// journalID keeps ids to names that are one file of the directory.
var journalID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

func (s *FileJournalStore) path(id string) (string, error) {
	if !journalID.MatchString(id) || strings.Contains(id, "..") {
		return "", fmt.Errorf("spine: journal id %q: letters, digits, '.', '_' and '-' only (at most 128)", id)
	}
	return filepath.Join(s.dir, id+".json"), nil
}

// Put stores a journal under id.
func (s *FileJournalStore) Put(ctx context.Context, id string, journal *Journal) error {
	path, err := s.path(id)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	encoded, err := json.Marshal(journal)
	if err != nil {
		return fmt.Errorf("spine: journal %s: %w", id, err)
	}
	return writeFileAtomic(path, encoded)
}

// writeFileAtomic writes data to path through a synced temporary file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".journal-*")
	if err != nil {
		return fmt.Errorf("spine: journal store: %w", err)
	}
	defer os.Remove(tmp.Name()) // nothing once renamed
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("spine: journal store: %w", err)
	}
	return nil
}

// Get returns the journal stored under id.
func (s *FileJournalStore) Get(ctx context.Context, id string) (*Journal, error) {
	path, err := s.path(id)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return ReadJournal(path, id)
}

// ReadJournal reads a journal file; name says which in errors.
func ReadJournal(path, name string) (*Journal, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrJournalNotFound, name)
	}
	if err != nil {
		return nil, fmt.Errorf("spine: journal %s: %w", name, err)
	}
	var journal Journal
	if err := json.Unmarshal(data, &journal); err != nil {
		return nil, fmt.Errorf("spine: journal %s is not a journal: %w", name, err)
	}
	return &journal, nil
}

// Delete forgets the journal stored under id.
func (s *FileJournalStore) Delete(ctx context.Context, id string) error {
	path, err := s.path(id)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("spine: journal store: %w", err)
	}
	return nil
}

// List returns the ids of the stored journals, sorted.
func (s *FileJournalStore) List(ctx context.Context) ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("spine: journal store: %w", err)
	}
	var ids []string
	for _, entry := range entries {
		name := entry.Name()
		if id, ok := strings.CutSuffix(name, ".json"); ok && entry.Type().IsRegular() && journalID.MatchString(id) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// WriteJournal writes a journal file atomically (for a CLI or a tool).
func WriteJournal(path string, journal *Journal) error {
	encoded, err := json.MarshalIndent(journal, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, encoded)
}
