// Package statefile keeps every account's state of each history the
// exporter counts, in named sections whose owners declare them (see
// Section), in one file, so that the exporter's counters continue across
// restarts and records that arrived (or keys that changed) while it was
// down are counted once.
//
// The file is a versioned JSON document (see Document), rewritten whole and
// atomically on every save: a temporary file in the same directory, fsync,
// rename over the old file, fsync of the directory. A reader therefore sees
// either the old or the new document, never a mix, even after a crash.
//
// Open removes the temporary files a save cut short by a crash left beside
// the file (only this package's own names), and reports them through
// Store.RemovedTemporaries.
//
// A missing file is a fresh start. A file that cannot be decoded, or that
// holds another version, is renamed aside (PATH.corrupt-<UTC time>) rather
// than overwritten, and Open reports it through Store.Corruption. Accounts in
// the file that the exporter no longer watches are kept, so that adding an
// account back resumes its counters.
package statefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Corruption describes a state file that Open could not use and set aside.
type Corruption struct {
	// Path is the state file, SetAsideAs where its content now is.
	Path, SetAsideAs string
	// Err is why it could not be used.
	Err error
}

// Store is the state file of a running exporter. Its methods are safe for
// concurrent use.
type Store struct {
	path     string
	corrupt  *Corruption
	removed  []string
	sections []Section

	mu sync.Mutex
	// doc is what the file holds: each section's states.
	doc           Document
	writeFailures uint64
	lastWrite     time.Time
}

var _ prometheus.Collector = (*Store)(nil)

// Open loads the state file at path. A missing file gives an empty store; a
// corrupt or incompatible one is renamed aside, reported by Corruption, and
// gives an empty store too. It fails, before the exporter starts, when the
// file cannot be read or its directory cannot be written, or when a corrupt
// file cannot be set aside. now names the set-aside file; sections are the
// file's sections, written in their order.
func Open(path string, now time.Time, sections ...Section) (*Store, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	s := &Store{path: path, sections: sections, doc: Document{Sections: map[string]map[string]any{}}}
	removed, err := removeTemporaries(path)
	if err != nil {
		return nil, fmt.Errorf("remove the temporary files of an earlier save: %w", err)
	}
	s.removed = removed
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return nil, fmt.Errorf("read state file: %w", err)
	}
	doc, err := DecodeDocument(b, sections...)
	if err == nil {
		s.doc = doc
		return s, nil
	}
	aside, rerr := setAside(path, now)
	if rerr != nil {
		return nil, fmt.Errorf("state file %s is unusable (%v) and cannot be set aside: %w", path, err, rerr)
	}
	s.corrupt = &Corruption{Path: path, SetAsideAs: aside, Err: err}
	return s, nil
}

// Check reports whether a state file at path could be used, without
// changing it: its directory exists and a file can be created in it, and the
// file, when it exists, is a regular file the exporter can read. Whether its
// content decodes is left to Open, which sets a bad file aside.
func Check(path string) error {
	if path == "" {
		return errors.New("no state file path")
	}
	if err := checkWritableDir(filepath.Dir(path)); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("state file: %w", err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("state file %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read state file: %w", err)
	}
	return f.Close()
}

// checkWritableDir fails unless a file can be created in dir, so that a
// state file that could never be written is refused at startup.
func checkWritableDir(dir string) error {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		missing := dir
		for parent := filepath.Dir(missing); parent != missing; parent = filepath.Dir(missing) {
			if _, perr := os.Stat(parent); perr == nil {
				break
			}
			missing = parent
		}
		return fmt.Errorf("state file directory %s does not exist (%s is missing): create it, or name a file in a directory that exists", dir, missing)
	}
	if err != nil {
		return fmt.Errorf("state file directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("state file directory %s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".woox_exporter-probe-*")
	if err != nil {
		// The probe's random name would only confuse the reader.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("state file directory %s is not writable: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// setAside renames the file at path to asideName(path, now) and returns
// the new name.
func setAside(path string, now time.Time) (string, error) {
	name := asideName(path, now)
	if err := os.Rename(path, name); err != nil {
		return "", err
	}
	return name, nil
}

// asideName is a free name path.corrupt-<UTC time>, with a counter when
// that name is taken.
func asideName(path string, now time.Time) string {
	base := path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
	name := base
	for n := 2; ; n++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d", base, n)
	}
}

// SetAside moves one account's saved state of a section out of the store
// into a state file of its own (path.corrupt-<UTC time>, holding that
// account alone) and returns its name: the other accounts are untouched,
// and the next save writes the file without it.
func (s *Store) SetAside(section, account string, now time.Time) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.doc.Sections[section][account]
	if !ok {
		return "", nil
	}
	b, err := EncodeDocument(Document{Sections: map[string]map[string]any{section: {account: st}}}, s.sections...)
	if err == nil {
		name := asideName(s.path, now)
		if err = writeAtomic(name, b); err == nil {
			delete(s.doc.Sections[section], account)
			return name, nil
		}
	}
	return "", fmt.Errorf("set aside the %s of account %q: %w", section, account, err)
}

// RemovedTemporaries are the temporary files of earlier saves that Open
// removed; nil for a nil store too.
func (s *Store) RemovedTemporaries() []string {
	if s == nil {
		return nil
	}
	return s.removed
}

// Path is the state file's path.
func (s *Store) Path() string { return s.path }

// Corruption is the file Open set aside, or nil; nil for a nil store too.
func (s *Store) Corruption() *Corruption {
	if s == nil {
		return nil
	}
	return s.corrupt
}

// writeLocked rewrites the whole document; the caller holds mu.
func (s *Store) writeLocked() error {
	b, err := EncodeDocument(s.doc, s.sections...)
	if err == nil {
		err = writeAtomic(s.path, b)
	}
	if err != nil {
		s.writeFailures++
		return fmt.Errorf("write state file: %w", err)
	}
	s.lastWrite = time.Now()
	return nil
}

var (
	writeFailuresDesc = prometheus.NewDesc("woox_exporter_state_file_write_failures_total",
		"Failed writes of the token history state file since the exporter started.", nil, nil)
	lastWriteDesc = prometheus.NewDesc("woox_exporter_state_file_last_write_timestamp_seconds",
		"Unix time of the last successful write of the token history state file.", nil, nil)
	corruptDesc = prometheus.NewDesc("woox_exporter_state_file_corrupt",
		"1 if the state file found at startup could not be used and was set aside (token history counters restarted from zero), else 0.", nil, nil)
)

// Describe implements prometheus.Collector.
func (s *Store) Describe(ch chan<- *prometheus.Desc) {
	ch <- writeFailuresDesc
	ch <- lastWriteDesc
	ch <- corruptDesc
}

// Collect implements prometheus.Collector.
func (s *Store) Collect(ch chan<- prometheus.Metric) {
	s.mu.Lock()
	failures, last := s.writeFailures, s.lastWrite
	s.mu.Unlock()
	ch <- prometheus.MustNewConstMetric(writeFailuresDesc, prometheus.CounterValue, float64(failures))
	if !last.IsZero() {
		ch <- prometheus.MustNewConstMetric(lastWriteDesc, prometheus.GaugeValue, float64(last.UnixNano())/1e9)
	}
	corrupt := 0.0
	if s.corrupt != nil {
		corrupt = 1
	}
	ch <- prometheus.MustNewConstMetric(corruptDesc, prometheus.GaugeValue, corrupt)
}
