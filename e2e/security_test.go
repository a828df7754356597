package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Recognisable secrets: neither may appear in any output.
const (
	canarySecret      = "CANARY-SECRET-7f3a9c51-never-print"
	canaryWrongSecret = "CANARY-WRONG-SECRET-0b2d44e8-never-print"
)

// Every path a secret could leak through (startup, debug logs, each fault
// kind, a rejected secret, a corrupt state file, a goroutine dump,
// configuration errors) is driven with a recognisable secret, and every
// output is searched for it: the binary's stdout and stderr, /metrics, the
// landing page, /-/ready, and every file the binary wrote (the state file,
// the corrupt one it set aside).
func TestBinaryNeverShowsTheSecret(t *testing.T) {
	scenario := fakeexchange.DefaultScenario()
	scenario.Accounts[0].Keys[1].APISecret = canarySecret // DefaultMainReadKey
	fake, err := fakeexchange.New(scenario, fakeexchange.WithRateLimit(100, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	url := serveFake(t, fake)
	dir := t.TempDir()
	var outputs []string
	collect := func(p *exportertest.Process) {
		for _, path := range []string{"/metrics", "/", "/-/ready", "/-/healthy"} {
			if _, body, err := p.Get(path); err == nil {
				outputs = append(outputs, path+": "+body)
			}
		}
	}
	args := append([]string{"--woox.api-url=" + url, "--config.file=" + accountsConfig(t, dir, "main"), "--log.level=debug",
		"--api.rate-limit=100/1s", "--api.timeout=300ms", "--token-history.state-file=" + filepath.Join(dir, "state.json")},
		exportertest.IntervalFlags(200*time.Millisecond)...)

	p := exportertest.Start(t, []string{"MAIN_SECRET=" + canarySecret}, args...)
	p.WaitReady(t)
	collect(p)
	for _, kind := range []fakeexchange.FaultKind{
		fakeexchange.FaultHTTPError, fakeexchange.FaultLatency, fakeexchange.FaultConnectionReset,
		fakeexchange.FaultRateLimitStorm, fakeexchange.FaultMaintenance, fakeexchange.FaultSuccessFalse,
		fakeexchange.FaultTruncatedJSON, fakeexchange.FaultMalformedJSON, fakeexchange.FaultOversizedBody,
		fakeexchange.FaultWrongContent,
	} {
		fake.InjectFault(fakeexchange.Fault{Kind: kind, Delay: time.Second, Size: 9 << 20})
		time.Sleep(500 * time.Millisecond)
		collect(p)
		fake.ClearFaults()
	}
	p.Stop(t)
	outputs = append(outputs, "run with the right secret: "+p.Output())
	if !strings.Contains(p.Output(), "level=debug") {
		t.Error("no debug line logged: the debug paths were not exercised")
	}

	// A corrupt state file, to be set aside by the next run.
	state := filepath.Join(dir, "state.json")
	if err := os.WriteFile(state, []byte(`{"version":1,"accounts":`), 0o600); err != nil {
		t.Fatal(err)
	}
	p = exportertest.Start(t, []string{"MAIN_SECRET=" + canaryWrongSecret}, args...)
	p.WaitReady(t)
	time.Sleep(300 * time.Millisecond)
	collect(p)
	p.Stop(t)
	outputs = append(outputs, "run with a wrong secret: "+p.Output())
	if !strings.Contains(p.Output(), "authentication failed") {
		t.Errorf("the wrong secret was not reported:\n%s", p.Output())
	}

	// A goroutine dump, as a panic or SIGQUIT prints it, while polls sign
	// requests with the secret: arguments show as machine words, never as
	// the strings they point to.
	p = exportertest.Start(t, []string{"MAIN_SECRET=" + canarySecret, "GOTRACEBACK=system"}, args...)
	p.WaitReady(t)
	// Slow answers keep signed requests in flight, so that the dump holds
	// client frames.
	fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultLatency, Delay: 5 * time.Second})
	time.Sleep(500 * time.Millisecond)
	if err := p.Signal(syscall.SIGQUIT); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(10 * time.Second); errors.Is(err, exportertest.ErrStillRunning) {
		t.Fatalf("no exit within 10s of SIGQUIT\n%s", p.Output())
	}
	fake.ClearFaults()
	outputs = append(outputs, "goroutine dump: "+p.Output())
	if !strings.Contains(p.Output(), "goroutine ") || !strings.Contains(p.Output(), "woox_exporter/client.") {
		t.Errorf("SIGQUIT printed no goroutine dump with the client's frames:\n%s", tail(p.Output(), 40))
	}

	// Every file the runs left behind: the state file and the corrupt one
	// set aside.
	files, err := filepath.Glob(state + "*")
	if err != nil {
		t.Fatal(err)
	}
	var setAside int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(f, ".corrupt-") {
			setAside++
		}
		outputs = append(outputs, f+": "+string(b))
	}
	if saved := readState(t, state); len(saved["main"].Totals) == 0 || setAside != 1 {
		t.Errorf("state file with %d totals and %d set-aside files (%v), want some totals and one set-aside file", len(saved["main"].Totals), setAside, files)
	}

	bin := exportertest.Binary(t)
	openSecret := writeSecret(t, canarySecret)
	if err := os.Chmod(openSecret, 0o644); err != nil {
		t.Fatal(err)
	}
	inline := filepath.Join(dir, "inline.yml")
	if err := os.WriteFile(inline, []byte("accounts:\n  - name: main\n    api_key: abc\n    api_secret: "+canarySecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	envAsName := filepath.Join(dir, "env-as-name.yml")
	if err := os.WriteFile(envAsName, []byte("accounts:\n  - name: main\n    api_key: abc\n    api_secret_env: "+canarySecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  []string
		args []string
	}{
		{[]string{"WOOX_API_SECRET=" + canarySecret}, nil},
		{[]string{"WOOX_API_KEY=abc", "WOOX_API_SECRET_FILE=" + openSecret}, nil},
		{[]string{"WOOX_API_KEY=abc", "WOOX_API_SECRET=" + canarySecret, "WOOX_API_SECRET_FILE=" + openSecret}, nil},
		{nil, []string{"--config.file=" + inline}},
		{nil, []string{"--config.file=" + envAsName}},
		{[]string{"WOOX_API_KEY=abc", "WOOX_API_SECRET=" + canarySecret}, []string{"--token-history.interval=1s"}},
		{[]string{"WOOX_API_KEY=abc", "WOOX_API_SECRET=" + canarySecret}, []string{"--config.check", "--log.level=debug"}},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = tc.env
		out, _ := cmd.CombinedOutput()
		outputs = append(outputs, strings.Join(tc.args, " ")+": "+string(out))
	}

	for _, out := range outputs {
		for _, secret := range []string{canarySecret, canaryWrongSecret} {
			if strings.Contains(out, secret) {
				t.Errorf("secret in the output:\n%s", out)
			}
		}
	}
}

// A WOO X secret (28 uppercase letters and digits) is also a valid variable
// and file name, so a secret pasted where its variable or file belongs passes
// every syntax check: the error names the field, never the value.
func TestBinaryNeverEchoesASecretPastedAsAName(t *testing.T) {
	const shapedSecret = "CANARYSECRET7F3A9C51NEVERPRT"
	bin := exportertest.Binary(t)
	dir := t.TempDir()
	config := func(field string) string {
		path := filepath.Join(dir, field+".yml")
		if err := os.WriteFile(path, []byte("accounts:\n  - name: main\n    api_key: abc\n    "+field+": "+shapedSecret+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		env  []string
		args []string
		want string
	}{
		{nil, []string{"--config.file=" + config("api_secret_env")}, "api_secret_env.yml:4: accounts[0].api_secret_env: "},
		{nil, []string{"--config.file=" + config("api_secret_file")}, "api_secret_file.yml:4: accounts[0].api_secret_file: "},
		{[]string{"WOOX_API_KEY=abc", "WOOX_API_SECRET_FILE=" + shapedSecret}, nil, "WOOX_API_SECRET_FILE: "},
	} {
		for _, check := range []bool{true, false} {
			args := tc.args
			if check {
				args = append([]string{"--config.check"}, args...)
			}
			cmd := exec.Command(bin, append([]string{"--web.listen-address=127.0.0.1:0"}, args...)...)
			cmd.Env = tc.env
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Errorf("%v %v: exited 0:\n%s", tc.env, args, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("%v %v: output does not name %q:\n%s", tc.env, args, tc.want, out)
			}
			if strings.Contains(string(out), shapedSecret) {
				t.Errorf("%v %v: secret in the output:\n%s", tc.env, args, out)
			}
		}
	}
}

// writeTLS writes a self-signed certificate for 127.0.0.1 and its key.
func writeTLS(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "woox_exporter test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TLS and basic auth through --web.config.file, end to end: the right
// password scrapes over https, a wrong one gets 401, plain http gets nothing.
func TestBinaryServesTLSWithBasicAuth(t *testing.T) {
	url := serveFake(t, startFake(t))
	dir := t.TempDir()
	certFile, keyFile, pool := writeTLS(t, dir)
	hash, err := bcrypt.GenerateFromPassword([]byte("scrape-password"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	webConfig := filepath.Join(dir, "web.yml")
	if err := os.WriteFile(webConfig, []byte("tls_server_config:\n  cert_file: "+certFile+"\n  key_file: "+keyFile+
		"\nbasic_auth_users:\n  prometheus: "+string(hash)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := exportertest.Start(t, nil, "--woox.api-url="+url, "--web.config.file="+webConfig)
	httpsClient := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	get := func(user, password string) (int, string, error) {
		req, err := http.NewRequest(http.MethodGet, "https://"+p.Addr+"/metrics", nil)
		if err != nil {
			return 0, "", err
		}
		req.SetBasicAuth(user, password)
		resp, err := httpsClient.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body), err
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		code, body, err := get("prometheus", "scrape-password")
		if err == nil && code == http.StatusOK && strings.Contains(body, "woox_poll_success") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no https scrape with the right password: %d %v\n%s", code, err, p.Output())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, _, err := get("prometheus", "wrong-password"); err != nil || code != http.StatusUnauthorized {
		t.Errorf("wrong password: %d %v, want 401", code, err)
	}
	if code, _, err := get("", ""); err != nil || code != http.StatusUnauthorized {
		t.Errorf("no password: %d %v, want 401", code, err)
	}
	if code, body, err := p.Get("/metrics"); err == nil && (code == http.StatusOK || strings.Contains(body, "woox_")) {
		t.Errorf("plain http answered %d with metrics", code)
	}
	p.Stop(t)
}

// The HTTP server's own errors (here TLS handshakes that fail) are logged
// through the exporter's logger: with --log.format=json every line of
// output is a JSON object.
func TestBinaryLogsTLSHandshakeErrorsAsJSON(t *testing.T) {
	url := serveFake(t, startFake(t))
	dir := t.TempDir()
	certFile, keyFile, _ := writeTLS(t, dir)
	webConfig := filepath.Join(dir, "web.yml")
	if err := os.WriteFile(webConfig, []byte("tls_server_config:\n  cert_file: "+certFile+"\n  key_file: "+keyFile+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := exportertest.Start(t, nil, "--woox.api-url="+url, "--web.config.file="+webConfig, "--log.format=json")
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(p.Output(), "handshake") {
		if time.Now().After(deadline) {
			t.Fatalf("no TLS handshake error logged within 20s:\n%s", p.Output())
		}
		// Plain text where a TLS handshake belongs.
		if c, err := net.DialTimeout("tcp", p.Addr, time.Second); err == nil {
			_, _ = c.Write([]byte("hello, plain text\r\n\r\n"))
			_, _ = io.Copy(io.Discard, c)
			c.Close()
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.Stop(t)
	var handshake bool
	for _, line := range strings.Split(strings.TrimSpace(p.Output()), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Errorf("not a JSON line: %s", line)
			continue
		}
		if err, _ := entry["err"].(string); strings.Contains(err, "TLS handshake error") && entry["level"] == "error" {
			handshake = true
		}
	}
	if !handshake {
		t.Errorf("no JSON line with level error and the TLS handshake error under err:\n%s", p.Output())
	}
}

// A key and its secret swapped in the environment: the secret stands where
// the key is logged, labelled and sent, and no output shows a character of
// it.
func TestSwappedKeyAndSecretShowNothingOfTheSecret(t *testing.T) {
	url := serveFake(t, startFake(t))
	secret := fakeexchange.DefaultMainReadSecret
	p := exportertest.Start(t, []string{"WOOX_API_KEY=" + secret, "WOOX_API_SECRET=" + fakeexchange.DefaultMainReadKey},
		"--woox.api-url="+url, "--log.level=debug")
	p.WaitReady(t)
	_, body, err := p.Get("/metrics")
	if err != nil {
		t.Fatal(err)
	}
	p.Stop(t)
	out := p.Output()
	if !strings.Contains(out, `msg="watching account" account=default api_key=****`) {
		t.Errorf("the start does not log the key masked whole:\n%s", out)
	}
	for _, shown := range []string{secret[:4] + "...", "..." + secret[len(secret)-4:], secret} {
		for where, text := range map[string]string{"log": out, "/metrics": body} {
			if strings.Contains(text, shown) {
				t.Errorf("the %s shows %q of the secret in the key's place", where, shown)
			}
		}
	}
}
