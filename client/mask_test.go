package client_test

import (
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/largeaccount"
)

func TestMaskAPIKey(t *testing.T) {
	for _, tc := range []struct {
		key      string
		showFull bool
		want     string
	}{
		{key: "", want: "****"},
		{key: "abc", want: "****"},
		{key: "abcdefgh", want: "****"},
		{key: "abcdefghi", want: "ab...hi"},
		{key: "abcdefghijkl", want: "abc...jkl"},
		{key: "AbCdEfGhIjKlMnOp", want: "AbCd...MnOp"},
		{key: "ääääöööö1ääääöööö", want: "ääää...öööö"},
		// A real key (client/testdata/captures/docs_credentials.json).
		{key: "+Pxxxxxxxxxxxxxxxxxxxx==", want: "+Pxx...xx=="},
		{key: "AbCdEfGhIjKlMnOp", showFull: true, want: "AbCdEfGhIjKlMnOp"},
		{key: "abc", showFull: true, want: "abc"},
		// A secret where the key belongs shows nothing, even with showFull.
		{key: fakeexchange.DefaultMainReadSecret, want: "****"},
		{key: fakeexchange.DefaultMainReadSecret, showFull: true, want: "****"},
		// One character off a secret's shape: a key, masked as one.
		{key: strings.ToLower(fakeexchange.DefaultMainReadSecret), want: "fake...0002"},
		{key: fakeexchange.DefaultMainReadSecret + "X", want: "FAKE...002X"},
	} {
		if got := client.MaskAPIKey(tc.key, tc.showFull); got != tc.want {
			t.Errorf("MaskAPIKey(%q, %v) = %q, want %q", tc.key, tc.showFull, got, tc.want)
		}
	}
}

// The fake exchange's keys and secrets have the shapes of the exchange's own.
// Every key masks to its first and last 4 characters, as labels have always
// shown them; no secret shows a character.
func TestMaskShowsKeysEndsAndNothingOfASecret(t *testing.T) {
	for _, pair := range [][2]string{
		{fakeexchange.DefaultMainKey, fakeexchange.DefaultMainSecret},
		{fakeexchange.DefaultMainReadKey, fakeexchange.DefaultMainReadSecret},
		{fakeexchange.DefaultMainTradeKey, fakeexchange.DefaultMainTradeSecret},
		{fakeexchange.DefaultSubKey, fakeexchange.DefaultSubSecret},
		{largeaccount.MainKey, largeaccount.MainSecret},
	} {
		key, secret := pair[0], pair[1]
		if got, want := client.MaskAPIKey(key, false), key[:4]+"..."+key[len(key)-4:]; got != want {
			t.Errorf("key %q masks as %q, want %q", key, got, want)
		}
		if got := client.MaskAPIKey(secret, false); got != "****" {
			t.Errorf("secret %q masks as %q, want ****", secret, got)
		}
	}
}

// Whatever the value, the mask shows at most 4 characters at each end and
// at most a quarter of the value at each.
func TestMaskNeverShowsMoreThanAKeysEnds(t *testing.T) {
	for n := range 64 {
		value := strings.Repeat("k", n)
		got := client.MaskAPIKey(value, false)
		shown := strings.Count(got, "k")
		if shown > 8 || 4*shown > 2*n {
			t.Errorf("a value of %d characters masks as %q: %d of them shown", n, got, shown)
		}
	}
}
