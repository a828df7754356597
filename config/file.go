package config

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// accountNameRE is what an account name may contain: it becomes the value of
// the "account" label and a part of log lines.
var accountNameRE = regexp.MustCompile(`^[a-zA-Z0-9_.-]+$`)

// envNameRE is what api_secret_env may name.
var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// maxConfigFileSize bounds how much of a config file is read: far more than
// any list of accounts, far less than a mistaken path (a log, a device)
// could fill memory with.
const maxConfigFileSize = 1 << 20

// Fields of one account in the config file.
const (
	fieldName          = "name"
	fieldAPIKey        = "api_key"
	fieldAPISecretFile = "api_secret_file"
	fieldAPISecretEnv  = "api_secret_env"
	fieldAPISecret     = "api_secret" // rejected: secrets are never inline
)

// LoadFile reads the accounts listed in the YAML file at path:
//
//	accounts:
//	  - name: main
//	    api_key: "..."
//	    api_secret_file: /run/secrets/woox-main
//	  - name: hedging
//	    api_key: "..."
//	    api_secret_env: WOOX_HEDGING_SECRET
//
// Each account needs a unique name made of [a-zA-Z0-9_.-], an api_key and
// exactly one of api_secret_file (a file that users other than its owner and
// group can neither read nor write; a relative path is relative to the config
// file's directory) or api_secret_env (the name of an environment variable,
// looked up with lookup). An inline
// api_secret and unknown fields are rejected, as is a file without accounts.
//
// The file must be a regular file of at most 1 MiB. Every problem found in
// it is reported, one per line, as "file:line: field: what is wrong". A nil
// lookup means os.LookupEnv.
func LoadFile(path string, lookup Lookup) ([]Account, error) {
	f, _, err := openRegularFile(path)
	switch {
	case errors.Is(err, errNotRegular):
		return nil, fmt.Errorf("config file %s is not a regular file", path)
	case err != nil:
		return nil, fmt.Errorf("read config file: %w", err)
	}
	defer f.Close()
	data, err := readAtMost(f, maxConfigFileSize)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, fmt.Errorf("config file %s is larger than %d bytes", path, maxConfigFileSize)
	case err != nil:
		return nil, fmt.Errorf("read config file: %w", err)
	}
	l := &fileLoader{path: path, dir: filepath.Dir(path), lookup: orLookupEnv(lookup)}
	return l.load(data)
}

// fileLoader walks the YAML node tree of one config file by hand rather than
// decoding into structs, so that every error carries its line and field and
// never quotes a value.
type fileLoader struct {
	path   string
	dir    string
	lookup Lookup
	errs   []lineError
}

// lineError is one problem found in the file; they are reported in line order.
type lineError struct {
	line int
	err  error
}

func (l *fileLoader) err() error {
	slices.SortStableFunc(l.errs, func(a, b lineError) int { return cmp.Compare(a.line, b.line) })
	errs := make([]error, len(l.errs))
	for i, e := range l.errs {
		errs[i] = e.err
	}
	return errors.Join(errs...)
}

// errorf records a problem at line (0 when there is none) in field (empty for
// the whole file).
func (l *fileLoader) errorf(line int, field, format string, args ...any) {
	l.errs = append(l.errs, lineError{line, errors.New(l.where(line, field) + fmt.Sprintf(format, args...))})
}

func (l *fileLoader) where(line int, field string) string {
	var b strings.Builder
	b.WriteString(l.path)
	if line > 0 {
		b.WriteString(":" + strconv.Itoa(line))
	}
	b.WriteString(": ")
	if field != "" {
		b.WriteString(field + ": ")
	}
	return b.String()
}

var yamlLineRE = regexp.MustCompile(`(?s)^yaml: line (\d+): (.*)$`)

// yamlError rewrites a parser error ("yaml: line 3: ...") into the file:line
// form of the other errors, at the line of the mistake (syntaxErrorLine):
// yaml.v3 reports where the enclosing block or flow began.
func (l *fileLoader) yamlError(data []byte, err error) error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return errors.New(l.where(syntaxErrorLine(data, line), "") + "invalid YAML: " + m[2])
	}
	return errors.New(l.where(0, "") + "invalid YAML: " + strings.TrimPrefix(msg, "yaml: "))
}

// document parses data as one YAML document and returns its root node;
// empty is what an empty file (or one holding only null) is refused with.
func (l *fileLoader) document(data []byte, empty string) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New(l.where(0, "") + empty)
		}
		return nil, l.yamlError(data, err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, l.yamlError(data, err)
	default:
		return nil, errors.New(l.where(extra.Line, "") + "only one YAML document is allowed")
	}

	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, errors.New(l.where(0, "") + empty)
		}
		root = root.Content[0]
	}
	root = resolve(root)
	if isNull(root) {
		return nil, errors.New(l.where(root.Line, "") + empty)
	}
	return root, nil
}

func (l *fileLoader) load(data []byte) ([]Account, error) {
	root, err := l.document(data, "no accounts: the file is empty")
	if err != nil {
		return nil, err
	}
	if root.Kind != yaml.MappingNode {
		return nil, errors.New(l.where(root.Line, "") + "expected a mapping with an accounts list, got " + kindName(root))
	}

	var accounts *yaml.Node
	l.mapping(root, "", func(key string, k, v *yaml.Node) {
		if key != "accounts" {
			l.errorf(k.Line, fieldPath("", key), "unknown field (the only top-level field is accounts)")
			return
		}
		accounts = v
	})
	var out []Account
	switch {
	case accounts == nil:
		l.errorf(root.Line, "accounts", "required: list at least one account")
	case isNull(accounts) || (accounts.Kind == yaml.SequenceNode && len(accounts.Content) == 0):
		l.errorf(accounts.Line, "accounts", "no accounts listed")
	case accounts.Kind != yaml.SequenceNode:
		l.errorf(accounts.Line, "accounts", "expected a list of accounts, got %s", kindName(accounts))
	default:
		seen := &seenAccounts{names: map[string]int{}, keys: map[string]seenKey{}}
		for i, n := range accounts.Content {
			if acc, ok := l.account(resolve(n), fmt.Sprintf("accounts[%d]", i), seen); ok {
				out = append(out, acc)
			}
		}
	}
	if len(l.errs) > 0 {
		return nil, l.err()
	}
	return out, nil
}

// field is a scalar value read from the file and where it was.
type field struct {
	set   bool
	bad   bool // not a string; already reported
	value string
	line  int
}

// seenAccounts are the names and API keys of the accounts read so far: the
// line where each name is first defined, and the account each key is.
type seenAccounts struct {
	names map[string]int
	keys  map[string]seenKey
}

type seenKey struct {
	account string
	line    int
}

// account checks and resolves the account at n; ok is false when it has
// errors, which are recorded.
func (l *fileLoader) account(n *yaml.Node, path string, seen *seenAccounts) (acc Account, ok bool) {
	if n.Kind != yaml.MappingNode {
		l.errorf(n.Line, path, "expected an account (a mapping with name, api_key and api_secret_file or api_secret_env), got %s", kindName(n))
		return Account{}, false
	}
	before := len(l.errs)
	fields := l.accountFields(n, path)
	get := func(key string) field {
		if f := fields[key]; f != nil {
			return *f
		}
		return field{line: n.Line}
	}

	name := get(fieldName)
	switch {
	case name.bad:
	case !name.set:
		l.errorf(n.Line, path+"."+fieldName, "required")
	case name.value == "":
		l.errorf(name.line, path+"."+fieldName, "must not be empty")
	case !accountNameRE.MatchString(name.value):
		l.errorf(name.line, path+"."+fieldName, "%s must match %s, as it becomes a label value", quote(name.value), accountNameRE)
	default:
		if first, dup := seen.names[name.value]; dup {
			l.errorf(name.line, path+"."+fieldName, "duplicate account name %s, first defined at line %d", quote(name.value), first)
		} else {
			seen.names[name.value] = name.line
		}
	}

	key := get(fieldAPIKey)
	switch {
	case key.bad:
	case !key.set:
		l.errorf(n.Line, path+"."+fieldAPIKey, "required")
	default:
		if err := checkAPIKey(key.value); err != nil {
			l.errorf(key.line, path+"."+fieldAPIKey, "%v", err)
		} else if first, dup := seen.keys[key.value]; dup {
			// Not echoed: a key is not secret, but it needs no printing.
			l.errorf(key.line, path+"."+fieldAPIKey, "the same API key as account %s (line %d): both would poll one account and spend its one rate limit twice; list each account once",
				quote(first.account), first.line)
		} else {
			seen.keys[key.value] = seenKey{account: name.value, line: key.line}
		}
	}

	var secret Secret
	file, env := get(fieldAPISecretFile), get(fieldAPISecretEnv)
	switch {
	case file.bad || env.bad:
	case file.set && env.set:
		l.errorf(max(file.line, env.line), path, "%s and %s are mutually exclusive; set only one", fieldAPISecretFile, fieldAPISecretEnv)
	case file.set:
		secret = l.secretFromFile(path+"."+fieldAPISecretFile, file)
	case env.set:
		secret = l.secretFromEnv(path+"."+fieldAPISecretEnv, env)
	default:
		l.errorf(n.Line, path, "one of %s or %s is required", fieldAPISecretFile, fieldAPISecretEnv)
	}

	if len(l.errs) > before {
		return Account{}, false
	}
	acc = Account{Name: name.value, APIKey: key.value, Secret: secret}
	if env.set {
		acc.SecretEnv = env.value
	}
	return acc, true
}

// accountFields reads the fields of the account mapping n, reporting
// unknown ones, secrets given in the file and values that are not strings.
func (l *fileLoader) accountFields(n *yaml.Node, path string) map[string]*field {
	fields := map[string]*field{}
	l.mapping(n, path, func(key string, k, v *yaml.Node) {
		switch key {
		case fieldName, fieldAPIKey, fieldAPISecretFile, fieldAPISecretEnv:
		case fieldAPISecret:
			l.errorf(k.Line, path+"."+key, "secrets are not accepted in the config file; put the secret in a file and set %s, or in an environment variable and set %s", fieldAPISecretFile, fieldAPISecretEnv)
			return
		default:
			l.errorf(k.Line, fieldPath(path, key), "unknown field (known fields: %s, %s, %s, %s)", fieldName, fieldAPIKey, fieldAPISecretFile, fieldAPISecretEnv)
			return
		}
		if v.Kind != yaml.ScalarNode {
			l.errorf(v.Line, path+"."+key, "expected a string, got %s", kindName(v))
			fields[key] = &field{set: true, bad: true, line: v.Line}
			return
		}
		f := &field{set: true, value: v.Value, line: v.Line}
		if isNull(v) {
			f.value = ""
		}
		fields[key] = f
	})
	return fields
}

func (l *fileLoader) secretFromFile(path string, f field) Secret {
	if f.value == "" {
		l.errorf(f.line, path, "must not be empty")
		return Secret{}
	}
	file := f.value
	if !filepath.IsAbs(file) {
		file = filepath.Join(l.dir, file)
	}
	s, err := readSecretFile(file)
	if err != nil {
		l.errs = append(l.errs, lineError{f.line, fmt.Errorf("%s%w", l.where(f.line, path), err)})
	}
	return s
}

func (l *fileLoader) secretFromEnv(path string, f field) Secret {
	if f.value == "" {
		l.errorf(f.line, path, "must not be empty")
		return Secret{}
	}
	if !envNameRE.MatchString(f.value) {
		// Not echoed: a value that is no variable name may be the secret itself.
		l.errorf(f.line, path, "must be the name of an environment variable (letters, digits and _, not starting with a digit)")
		return Secret{}
	}
	// The name is not echoed either: a WOO X secret (uppercase letters and
	// digits) is a valid variable name too.
	raw, set := l.lookup(f.value)
	if !set {
		l.errorf(f.line, path, "the environment variable it names is not set")
		return Secret{}
	}
	if raw == "" {
		l.errorf(f.line, path, "the environment variable it names is set but empty")
		return Secret{}
	}
	s, err := cleanSecret(raw)
	if err != nil {
		l.errorf(f.line, path, "the environment variable it names: %v", err)
	}
	return s
}

// mapping calls fn for each key of the mapping n in order, after rejecting
// keys that are not strings and keys given twice (yaml.v3 only checks that
// when decoding into Go values).
func (l *fileLoader) mapping(n *yaml.Node, path string, fn func(key string, k, v *yaml.Node)) {
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			l.errorf(k.Line, path, "expected a field name, got %s", kindName(k))
			continue
		}
		if first, dup := seen[k.Value]; dup {
			l.errorf(k.Line, fieldPath(path, k.Value), "duplicate field, first given at line %d", first)
			continue
		}
		seen[k.Value] = k.Line
		fn(k.Value, k, v)
	}
}

// resolve follows aliases (*name) to the node they stand for.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; i < 8 && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		if isNull(n) {
			return "null"
		}
		return "a scalar"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	return "an unknown node"
}

// fieldPath appends key to path, quoting keys that are not plain names so that
// the error stays on one line and readable.
func fieldPath(path, key string) string {
	if accountNameRE.MatchString(key) && len(key) <= 64 {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	return path + "[" + quote(key) + "]"
}

// quote quotes a value from the file for an error message, shortened so that
// a pasted blob does not flood the log.
func quote(s string) string {
	const maxLen = 64
	if len(s) > maxLen {
		return strconv.Quote(s[:maxLen]) + "..."
	}
	return strconv.Quote(s)
}
