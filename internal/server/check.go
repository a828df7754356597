package server

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/prometheus/exporter-toolkit/web"
	"go.yaml.in/yaml/v3"
	"golang.org/x/crypto/bcrypt"
)

// CheckTelemetryPath refuses a --web.telemetry-path that http.ServeMux would
// panic on, read as a method or host pattern, or never match because it
// redirects requests for unclean paths.
func CheckTelemetryPath(p string) error {
	fail := func(why string) error { return fmt.Errorf("--web.telemetry-path %q: %s", p, why) }
	switch {
	case !strings.HasPrefix(p, "/"):
		return fail("must be an absolute path such as /metrics")
	case strings.ContainsFunc(p, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == '{' || r == '}' }):
		return fail("must not contain spaces, control characters or braces")
	case p != "/" && path.Clean(p) != strings.TrimSuffix(p, "/"):
		return fail("must be a clean path (no //, . or .. segments)")
	case p == healthyPath || p == readyPath:
		return fail("is taken by a health check")
	}
	return nil
}

// maxWebConfigSize bounds the --web.config.file, which may hold inline
// certificates: exporter-toolkit reads it whole, at start and again for
// every connection and request.
const maxWebConfigSize = 1 << 20

// CheckWebConfigFile checks the --web.config.file at path before anything
// polls: exporter-toolkit reads it only once it serves.
func CheckWebConfigFile(path string) error {
	if err := checkWebConfigFileType(path); err != nil {
		return fmt.Errorf("--web.config.file %s: %w", path, err)
	}
	if err := checkPasswordHashes(path); err != nil {
		return fmt.Errorf("--web.config.file %s: %w", path, err)
	}
	if err := web.Validate(path); err != nil {
		return fmt.Errorf("--web.config.file %s: %w", path, err)
	}
	return nil
}

// hashCommand makes the bcrypt hash of a password that basic_auth_users
// takes, reading the password from the terminal.
const hashCommand = `htpasswd -nBC 10 "" | tr -d ':\n'`

// checkPasswordHashes names the first user, in order, whose password in
// basic_auth_users is not a bcrypt hash. exporter-toolkit says only
// "crypto/bcrypt: hashedSecret too short to be a bcrypted password", which
// does not tell a plain-text password where its hash belongs.
func checkPasswordHashes(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var c struct {
		Users map[string]string `yaml:"basic_auth_users"`
	}
	if yaml.Unmarshal(b, &c) != nil {
		// web.Validate says what is wrong with the file.
		return nil
	}
	for _, user := range slices.Sorted(maps.Keys(c.Users)) {
		if _, err := bcrypt.Cost([]byte(c.Users[user])); err != nil {
			return fmt.Errorf("basic_auth_users: the password of user %q is not a bcrypt hash (%v): put the hash there, not the password; make it with %s", user, err, hashCommand)
		}
	}
	return nil
}

// checkWebConfigFileType refuses a web config that exporter-toolkit would
// block on (a FIFO) or read without end (a device): it is read with
// os.ReadFile.
func checkWebConfigFileType(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case fi.Size() > maxWebConfigSize:
		return fmt.Errorf("larger than %d bytes", maxWebConfigSize)
	}
	return nil
}
