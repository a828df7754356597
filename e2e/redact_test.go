package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// A hostile exchange quotes the signed request's x-api-signature and
// x-api-key, and a long hex string, in its error messages: the signature
// alone (64 characters, the length of the message cut), the key, the hex
// run, and all of them together. Neither the log (at debug level) nor
// /metrics may show any of them; a signature replays its request for
// about 300 s.
func TestExchangeMessagesNeverShowTheKeySignatureOrHexRuns(t *testing.T) {
	const hex40 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"
	var (
		mu    sync.Mutex
		sigs  []string
		calls atomic.Int32
	)
	fake := startFake(t)
	hostile := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sig, key := r.Header.Get("x-api-signature"), r.Header.Get("x-api-key")
		if key == "" {
			fake.ServeHTTP(w, r) // the public endpoints
			return
		}
		mu.Lock()
		sigs = append(sigs, sig)
		mu.Unlock()
		message := []string{sig, "key " + key + " refused", "trace " + hex40, "x-api-key: " + key + ", x-api-signature: " + sig + ", id " + hex40}[calls.Add(1)%4]
		body, _ := json.Marshal(map[string]any{"success": false, "code": -1001, "message": message})
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write(body)
	})
	dir := t.TempDir()
	p := exportertest.Start(t, defaultSecrets, append([]string{"--woox.api-url=" + serveFake(t, hostile),
		"--config.file=" + accountsConfig(t, dir, "main"), "--log.level=debug", "--api.rate-limit=100/1s"},
		exportertest.IntervalFlags(200*time.Millisecond)...)...)
	p.WaitReady(t)
	for deadline := time.Now().Add(10 * time.Second); calls.Load() < 12 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	_, metrics, err := p.Get("/metrics")
	if err != nil {
		t.Fatal(err)
	}
	p.Stop(t)
	if calls.Load() < 12 {
		t.Fatalf("%d signed requests, want 12 or more\n%s", calls.Load(), p.Output())
	}
	mu.Lock()
	secrets := append([]string{fakeexchange.DefaultMainReadKey, hex40}, sigs...)
	mu.Unlock()
	for name, text := range map[string]string{"log": p.Output(), "/metrics": metrics} {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s shows %q", name, s)
			}
		}
	}
	if !strings.Contains(p.Output(), "[REDACTED]") {
		t.Errorf("no exchange message logged redacted: the path was not exercised\n%s", tail(p.Output(), 40))
	}
}
