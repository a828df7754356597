package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
)

// Version is the document version this package writes and reads.
const Version = 1

// Document is the content of the state file.
type Document struct {
	Version int
	// Sections maps a section's name to its states by account name.
	Sections map[string]map[string]any
}

// Section is one named part of the state file: every account's state of
// one history, a value of the type its owner declares. An optional section
// is absent from files written before it was kept (omitempty): such files
// load as they are.
type Section struct {
	// Name is the section's key in the file.
	Name string
	// Zero is a value of the type of one account's state.
	Zero any
	// Check refuses a state its owner could not rebuild: a file holding
	// one is set aside whole.
	Check func(st any) error
	// Required is set for a section every file holds, even empty: a file
	// without it is refused.
	Required bool
	// CheckSaves is set for a section whose states Check must pass before
	// they are written, not only when read.
	CheckSaves bool
}

// SectionsOf is the sections a package declares as structs of Section's
// fields: the owner of a history need not import this package to declare
// its section.
func SectionsOf[S ~struct {
	Name       string
	Zero       any
	Check      func(st any) error
	Required   bool
	CheckSaves bool
}](declared []S) []Section {
	out := make([]Section, len(declared))
	for i, s := range declared {
		out[i] = Section(s)
	}
	return out
}

// documentType is the Go type of a document with sections: the version,
// then each section as a map from account name to state, in the order
// given. Decoding into it refuses unknown fields at any depth and names the
// byte offset of a fault in the whole file.
func documentType(sections []Section) reflect.Type {
	fields := []reflect.StructField{{Name: "Version", Type: reflect.TypeFor[int](), Tag: `json:"version"`}}
	for i, s := range sections {
		tag := s.Name
		if !s.Required {
			tag += ",omitempty"
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("Section%d", i),
			Type: reflect.MapOf(reflect.TypeFor[string](), reflect.TypeOf(s.Zero)), Tag: reflect.StructTag(fmt.Sprintf(`json:%q`, tag))})
	}
	return reflect.StructOf(fields)
}

// DecodeDocument parses and checks a state document: the version, every
// required section there, and every state of every section checked by its
// section; a key the sections do not name is refused. It never returns a
// partial result. Whether a cursor is plausible in time is not judged
// here: only the exchange's clock can tell, and only for that account.
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
	doc := Document{Version: int(fields.Field(0).Int()), Sections: map[string]map[string]any{}}
	if doc.Version != Version {
		return Document{}, fmt.Errorf("version %d: this exporter reads version %d", doc.Version, Version)
	}
	for i, s := range sections {
		m := fields.Field(1 + i)
		if s.Required && m.IsNil() {
			return Document{}, fmt.Errorf("no %s object", s.Name)
		}
		states := map[string]any{}
		for iter := m.MapRange(); iter.Next(); {
			account, st := iter.Key().String(), iter.Value().Interface()
			if err := s.Check(st); err != nil {
				return Document{}, fmt.Errorf("account %q: %s: %w", account, s.Name, err)
			}
			states[account] = st
		}
		if len(states) > 0 {
			doc.Sections[s.Name] = states
		}
	}
	return doc, nil
}

// EncodeDocument renders a state document at this package's Version, its
// sections in the order given; a section it holds must be among them.
func EncodeDocument(doc Document, sections ...Section) ([]byte, error) {
	v := reflect.New(documentType(sections)).Elem()
	v.Field(0).SetInt(Version)
	named := 0
	for i, s := range sections {
		states, ok := doc.Sections[s.Name]
		if ok {
			named++
		}
		m := reflect.MakeMapWithSize(v.Field(1+i).Type(), len(states))
		for account, st := range states {
			if reflect.TypeOf(st) != reflect.TypeOf(s.Zero) {
				return nil, fmt.Errorf("account %q: %s: a state of type %T", account, s.Name, st)
			}
			m.SetMapIndex(reflect.ValueOf(account), reflect.ValueOf(st))
		}
		v.Field(1 + i).Set(m)
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

// Section returns a copy of every account's saved state of the named
// section, accounts no longer watched included.
func (s *Store) Section(section string) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.doc.Sections[section])
}

// SectionState is one account's saved state of the named section.
func (s *Store) SectionState(section, account string) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.doc.Sections[section][account]
	return st, ok
}

// SaveSection records one account's state of the named section and
// rewrites the file atomically; the other states stay as they were. A
// state of another type, or one the section checks on saves and its Check
// refuses, is refused before anything is written. A failed write is
// counted and returned; the next save writes everything again. The store
// keeps st as it is: the caller must not change it afterwards.
func (s *Store) SaveSection(section, account string, st any) error {
	i := s.sectionIndex(section)
	if i < 0 {
		return fmt.Errorf("save %s of account %q: no such section of the state file", section, account)
	}
	if reflect.TypeOf(st) != reflect.TypeOf(s.sections[i].Zero) {
		return fmt.Errorf("save %s of account %q: a state of type %T", section, account, st)
	}
	if s.sections[i].CheckSaves {
		if err := s.sections[i].Check(st); err != nil {
			return fmt.Errorf("save %s of account %q: %w", section, account, err)
		}
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
