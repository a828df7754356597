package client

import "testing"

func TestMaskAPIKey(t *testing.T) {
	for _, tc := range []struct {
		key      string
		showFull bool
		want     string
	}{
		{key: "", want: "****"},
		{key: "abc", want: "****"},
		{key: "abcdefgh", want: "****"},
		{key: "abcdefghi", want: "abcd...fghi"},
		{key: "AbCdEfGhIjKlMnOp", want: "AbCd...MnOp"},
		{key: "ääääöööö1", want: "ääää...ööö1"},
		{key: "AbCdEfGhIjKlMnOp", showFull: true, want: "AbCdEfGhIjKlMnOp"},
		{key: "abc", showFull: true, want: "abc"},
	} {
		if got := MaskAPIKey(tc.key, tc.showFull); got != tc.want {
			t.Errorf("MaskAPIKey(%q, %v) = %q, want %q", tc.key, tc.showFull, got, tc.want)
		}
	}
}
