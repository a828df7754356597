package statefile

import (
	"strings"
	"testing"
)

// A file the decoder refuses is described by the kind of fault and its
// offset, never by what the file holds.
func TestDecodeErrorNamesTheOffsetNotTheContent(t *testing.T) {
	for _, tc := range []struct{ name, content, want string }{
		{"not json", `{"version":1,"accounts":zq7secret}`, "decode: not JSON at byte offset 25"},
		{"wrong type", `{"version":"zq7secret","accounts":{}}`, "decode: a value of the wrong type at byte offset 22"},
		{"unknown field", `{"version":1,"zq7secret":1,"accounts":{}}`, "decode: unknown field at byte offset 13"},
		{"truncated", `{"version":1,"accounts":{"zq7secret":`, "decode: truncated at byte offset 37"},
		{"empty", ``, "decode: empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decode([]byte(tc.content))
			if err == nil {
				t.Fatal("decoded")
			}
			if strings.Contains(err.Error(), "zq7") {
				t.Errorf("error %q quotes the file", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}
