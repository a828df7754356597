package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/woox-exporter/woox_exporter/ledger"
)

// Version is the document version this package writes and reads.
const Version = 1

// Document is the content of the state file.
type Document struct {
	Version int
	// Accounts maps an account name to its token history ledger state.
	Accounts map[string]ledger.State
	// Sections maps a section's name to its states by account name.
	Sections map[string]map[string]any
}

// Section is one named part of the state file beyond the token history:
// every account's state of one history, a value of the type its owner
// declares. A section is absent from files written before it was kept
// (omitempty): such files load as they are.
type Section struct {
	// Name is the section's key in the file.
	Name string
	// Zero is a value of the type of one account's state.
	Zero any
	// Check refuses a state its owner could not rebuild: a file holding
	// one is set aside whole, and a save of one is refused.
	Check func(st any) error
}

// SectionsOf is the sections a package declares as structs of Section's
// fields: the owner of a history need not import this package to declare
// its section.
func SectionsOf[S ~struct {
	Name  string
	Zero  any
	Check func(st any) error
}](declared []S) []Section {
	out := make([]Section, len(declared))
	for i, s := range declared {
		out[i] = Section(s)
	}
	return out
}

// documentType is the Go type of a document with sections: version,
// accounts, then each section as a map from account name to state, in the
// order given. Decoding into it refuses unknown fields at any depth and
// names the byte offset of a fault in the whole file.
func documentType(sections []Section) reflect.Type {
	fields := []reflect.StructField{
		{Name: "Version", Type: reflect.TypeFor[int](), Tag: `json:"version"`},
		{Name: "Accounts", Type: reflect.TypeFor[map[string]ledger.State](), Tag: `json:"accounts"`},
	}
	for i, s := range sections {
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Section%d", i),
			Type: reflect.MapOf(reflect.TypeFor[string](), reflect.TypeOf(s.Zero)), Tag: reflect.StructTag(fmt.Sprintf(`json:%q`, s.Name+",omitempty"))})
	}
	return reflect.StructOf(fields)
}

// Decode parses and checks a state document, returning the token history
// states: the version, and that every account's state rebuilds a ledger.
// It never returns a partial result. Whether a cursor is plausible in time
// is not judged here: only the exchange's clock can tell, and only for that
// account (see ledger.State.Check).
func Decode(b []byte, sections ...Section) (map[string]ledger.State, error) {
	doc, err := DecodeDocument(b, sections...)
	return doc.Accounts, err
}

// DecodeDocument is Decode of the whole document, every section's states
// too, each checked by its section: a key the sections do not name is
// refused.
func DecodeDocument(b []byte, sections ...Section) (Document, error) {
	v := reflect.New(documentType(sections))
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v.Interface()); err != nil {
		return Document{}, decodeError(err, dec, b)
	}
	if dec.More() {
		return Document{}, errors.New("decode: data after the document")
	}
	fields := v.Elem()
	doc := Document{Version: int(fields.Field(0).Int()), Accounts: fields.Field(1).Interface().(map[string]ledger.State), Sections: map[string]map[string]any{}}
	if doc.Version != Version {
		return Document{}, fmt.Errorf("version %d: this exporter reads version %d", doc.Version, Version)
	}
	if doc.Accounts == nil {
		return Document{}, errors.New("no accounts object")
	}
	for name, st := range doc.Accounts {
		if _, err := ledger.FromState(st, ledger.Config{}); err != nil {
			return Document{}, fmt.Errorf("account %q: %w", name, err)
		}
	}
	for i, s := range sections {
		iter := fields.Field(2 + i).MapRange()
		for iter.Next() {
			account, st := iter.Key().String(), iter.Value().Interface()
			if err := s.Check(st); err != nil {
				return Document{}, fmt.Errorf("account %q: %s: %w", account, s.Name, err)
			}
			if doc.Sections[s.Name] == nil {
				doc.Sections[s.Name] = map[string]any{}
			}
			doc.Sections[s.Name][account] = st
		}
	}
	return doc, nil
}

// Encode renders a state document of token history states alone.
func Encode(accounts map[string]ledger.State) ([]byte, error) {
	return EncodeDocument(Document{Accounts: accounts})
}

// EncodeDocument renders a state document at this package's Version, its
// sections in the order given; a section it holds must be among them.
func EncodeDocument(doc Document, sections ...Section) ([]byte, error) {
	v := reflect.New(documentType(sections)).Elem()
	v.Field(0).SetInt(Version)
	if doc.Accounts == nil {
		doc.Accounts = map[string]ledger.State{}
	}
	v.Field(1).Set(reflect.ValueOf(doc.Accounts))
	named := 0
	for i, s := range sections {
		states, ok := doc.Sections[s.Name]
		if !ok {
			continue
		}
		named++
		m := reflect.MakeMapWithSize(v.Field(2+i).Type(), len(states))
		for account, st := range states {
			if reflect.TypeOf(st) != reflect.TypeOf(s.Zero) {
				return nil, fmt.Errorf("account %q: %s: a state of type %T", account, s.Name, st)
			}
			m.SetMapIndex(reflect.ValueOf(account), reflect.ValueOf(st))
		}
		v.Field(2 + i).Set(m)
	}
	if named != len(doc.Sections) {
		return nil, errors.New("a section the document holds is not among its sections")
	}
	b, err := json.MarshalIndent(v.Interface(), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// SectionState is one account's saved state of the named section.
func (s *Store) SectionState(section, account string) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.doc.Sections[section][account]
	return st, ok
}

// SaveSection records one account's state of the named section and
// rewrites the file atomically, as Save does. A state of another type, or
// one the section's Check refuses, is refused before anything is written.
// The store keeps st as it is: the caller must not change it afterwards.
func (s *Store) SaveSection(section, account string, st any) error {
	i := s.sectionIndex(section)
	if i < 0 {
		return fmt.Errorf("save %s of account %q: no such section of the state file", section, account)
	}
	if reflect.TypeOf(st) != reflect.TypeOf(s.sections[i].Zero) {
		return fmt.Errorf("save %s of account %q: a state of type %T", section, account, st)
	}
	if err := s.sections[i].Check(st); err != nil {
		return fmt.Errorf("save %s of account %q: %w", section, account, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.doc.Sections[section] == nil {
		s.doc.Sections[section] = map[string]any{}
	}
	s.doc.Sections[section][account] = st
	return s.writeLocked()
}

// sectionIndex is the index of the named section in s.sections, or -1.
func (s *Store) sectionIndex(name string) int {
	for i, sec := range s.sections {
		if sec.Name == name {
			return i
		}
	}
	return -1
}
