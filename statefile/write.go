package statefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tempPattern names the temporary file a save of the state file at path
// writes before renaming it over path.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

// removeTemporaries removes what a process killed during a save leaves
// beside the state file at path: files named as tempPattern(path) makes,
// and nothing else (the empty probes of Check are not this file's alone).
// A state file rewritten every poll would otherwise fill a small volume
// with megabytes a crash. The caller holds the state file's lock, so no
// other exporter is writing them.
func removeTemporaries(path string) ([]string, error) {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	temp := strings.TrimSuffix(tempPattern(path), "*")
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, temp) || len(name) == len(temp) || !e.Type().IsRegular() {
			continue
		}
		full := filepath.Join(dir, name)
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, err
		}
		removed = append(removed, full)
	}
	return removed, nil
}

// writeAtomic replaces the file at path with b so that a crash at any point
// leaves either the old or the new content.
func writeAtomic(path string, b []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tempPattern(path))
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
