package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"unicode"
)

// redacted is what a Secret shows wherever it could be printed.
const redacted = "<redacted>"

// maxSecretFileSize bounds how much of a secret file is read, so that a
// mistaken path (a log file, a device) fails fast instead of filling memory.
const maxSecretFileSize = 64 << 10

// Secret holds an API secret. It prints, logs and marshals as "<redacted>"
// through every fmt verb, encoding/json, encoding.TextMarshaler, YAML and
// log/slog; only [Secret.Reveal] returns the value, for the request signer.
// The zero value is the empty secret.
type Secret struct {
	// Unexported, so that reflection-based encoders such as encoding/gob
	// cannot reach it either.
	value string
}

// NewSecret wraps s so that it cannot be printed by accident.
func NewSecret(s string) Secret { return Secret{value: s} }

// Reveal returns the secret itself. Call it only to sign a request.
func (s Secret) Reveal() string { return s.value }

// IsZero reports whether the secret is empty.
func (s Secret) IsZero() bool { return s.value == "" }

// String returns "<redacted>".
func (s Secret) String() string { return redacted }

// GoString returns "<redacted>", for %#v.
func (s Secret) GoString() string { return redacted }

// Format prints "<redacted>" for every verb (quoted for %q), so that no verb,
// flag or width can reach the value.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		_, _ = io.WriteString(f, `"`+redacted+`"`)
		return
	}
	_, _ = io.WriteString(f, redacted)
}

// MarshalText returns "<redacted>"; encoding/json, encoding/xml and go-kit's
// logfmt use it.
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// MarshalJSON returns the JSON string "<redacted>".
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalYAML returns "<redacted>".
func (s Secret) MarshalYAML() (any, error) { return redacted, nil }

// LogValue returns "<redacted>" for log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// cleanSecret trims trailing whitespace (the newline editors and `echo` add)
// and checks what is left. Errors describe the problem, never the content.
func cleanSecret(raw string) (Secret, error) {
	s := strings.TrimRightFunc(raw, unicode.IsSpace)
	if s == "" {
		return Secret{}, errors.New("secret is empty")
	}
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return Secret{}, errors.New("secret contains whitespace or control characters")
	}
	return Secret{value: s}, nil
}

// readSecretFile reads a secret from path, which must be a regular file that
// users other than its owner and group can neither read nor write.
// Errors never name the path: a secret pasted where its file name belongs
// would be echoed. Callers name the field or variable instead.
func readSecretFile(path string) (Secret, error) {
	f, fi, err := openRegularFile(path)
	switch {
	case errors.Is(err, errNotRegular):
		return Secret{}, errors.New("secret file is not a regular file")
	case err != nil:
		return Secret{}, fmt.Errorf("read secret file: %w", withoutPath(err))
	}
	defer f.Close()
	if err := checkSecretFileMode(fi); err != nil {
		return Secret{}, err
	}
	b, err := readAtMost(f, maxSecretFileSize)
	switch {
	case errors.Is(err, errTooLarge):
		return Secret{}, fmt.Errorf("secret file is larger than %d bytes", maxSecretFileSize)
	case err != nil:
		return Secret{}, fmt.Errorf("read secret file: %w", withoutPath(err))
	}
	sec, err := cleanSecret(string(b))
	if err != nil {
		return Secret{}, fmt.Errorf("secret file: %w", err)
	}
	return sec, nil
}

var (
	errNotRegular = errors.New("not a regular file")
	errTooLarge   = errors.New("file too large")
)

// openRegularFile opens path for reading only if it is a regular file: a
// FIFO would block the open and a device such as /dev/zero never ends.
func openRegularFile(path string) (*os.File, os.FileInfo, error) {
	// Stat before opening: opening a FIFO would block.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errNotRegular
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	// Check again what was opened, in case the path changed in between.
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, errNotRegular
	}
	return f, fi, nil
}

// readAtMost reads f to its end, or fails with errTooLarge past limit bytes.
func readAtMost(f *os.File, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, errTooLarge
	}
	return b, nil
}

// withoutPath drops the path from a file system error, keeping its cause
// (errors.Is still sees fs.ErrNotExist and the like).
func withoutPath(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}

func checkSecretFileMode(fi os.FileInfo) error {
	// Windows reports synthetic permission bits that say nothing about who
	// can read the file.
	if runtime.GOOS == "windows" {
		return nil
	}
	// The group may read: Kubernetes mounts secrets 0440 with fsGroup so that
	// a non-root container can read them. Other users may not: readable would
	// leak the secret, writable would let them swap it.
	perm := fi.Mode().Perm()
	switch {
	case perm&0o004 != 0:
		return fmt.Errorf("secret file has mode %04o and is readable by other users; run chmod o-rwx on it", perm)
	case perm&0o002 != 0:
		return fmt.Errorf("secret file has mode %04o and is writable by other users; run chmod o-rwx on it", perm)
	}
	return nil
}
