package client

import (
	"fmt"
	"strings"
	"testing"
)

// Vectors from public-facts.md.
func TestSignMatchesPublishedVectors(t *testing.T) {
	const secret, ts = "QHKRXHPAW1MC9YGZMAT8YDJG2HPR", "1578565539808"
	for _, tc := range []struct{ path, want string }{
		{"/v3/algo/orders?algoType=STOP", "fddab579aff8c193f920c2d4f0cda6a21a60f06fd9c3916541ecc4f6461f5977"},
		{"/v3/account/credentials", "86487ca5f3c9b994436e8af0915dfb3002770bc5041c28b3548111a91460991d"},
	} {
		if got := Sign(secret, ts, "GET", tc.path, ""); got != tc.want {
			t.Errorf("Sign(%q) = %s, want %s", tc.path, got, tc.want)
		}
	}
}

func TestSignChangesWithEveryPart(t *testing.T) {
	base := Sign("s", "1", "GET", "/p?a=1", "")
	for name, got := range map[string]string{
		"secret": Sign("t", "1", "GET", "/p?a=1", ""),
		"time":   Sign("s", "2", "GET", "/p?a=1", ""),
		"method": Sign("s", "1", "DELETE", "/p?a=1", ""),
		"query":  Sign("s", "1", "GET", "/p?a=2", ""),
		"body":   Sign("s", "1", "GET", "/p?a=1", "{}"),
	} {
		if got == base {
			t.Errorf("signature does not depend on the %s", name)
		}
	}
}

// However a caller formats a Client, even the %#v that walks unexported
// fields, the secret it signs with does not show.
func TestFormattedClientHoldsNoSecret(t *testing.T) {
	const secret = "SECRETSECRETSECRETSECRET1234"
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", Account: "a", APIKey: "key", APISecret: secret})
	if err != nil {
		t.Fatal(err)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		if out := fmt.Sprintf(verb, c); strings.Contains(out, secret) {
			t.Errorf("%s of a Client shows the secret: %s", verb, out)
		}
	}
}
