package client

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An https connection that cannot be trusted or made is a TLS failure, with
// what to check; it is not called transient, as no retry fixes it.
func TestTLSFailuresAreNamedWithWhatToCheck(t *testing.T) {
	answer := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"success":true,"data":{"rows":[]}}`))
	})
	selfSigned := httptest.NewUnstartedServer(answer)
	selfSigned.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake the client aborts
	selfSigned.StartTLS()
	t.Cleanup(selfSigned.Close)
	plain := httptest.NewServer(answer)
	t.Cleanup(plain.Close)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "https://" + closed.Addr().String()
	_ = closed.Close()

	for _, tc := range []struct {
		name, url string
		tls       bool
		hint      string
	}{
		{"certificate of an unknown authority", selfSigned.URL, true, "the server's certificate does not verify: check the CA bundle"},
		{"https to a plain-http server", strings.Replace(plain.URL, "http://", "https://", 1), true, "the server answers plain http: check the scheme"},
		{"connection refused", closedURL, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, tc.url, func(cfg *Config) { cfg.HTTPClient = NewHTTPClient(0) })
			_, _, err := c.Credentials(context.Background())
			if err == nil {
				t.Fatal("no error")
			}
			if IsTLS(err) != tc.tls || IsTransient(err) == tc.tls {
				t.Fatalf("%v: TLS %v, transient %v; want TLS %v", err, IsTLS(err), IsTransient(err), tc.tls)
			}
			if tc.tls && !strings.Contains(TLSHint(err), tc.hint) {
				t.Errorf("hint %q, want it to say %q", TLSHint(err), tc.hint)
			}
			if tc.tls && !strings.Contains(err.Error(), "TLS failure") {
				t.Errorf("error %q does not say TLS failure", err)
			}
		})
	}
}
