package e2e

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
)

// examples/web-config.yml as shipped, with a certificate made here and the
// hash of a password known here in place of the shipped one: the binary
// serves every path over TLS and only with the password.
func TestBinaryServesTheExampleWebConfig(t *testing.T) {
	example, err := os.ReadFile("../examples/web-config.yml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pool := writeCertificate(t, filepath.Join(dir, "tls"))
	const password = "e2e-password-not-in-the-example"
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	hashLine := regexp.MustCompile(`(?m)^(\s+prometheus: )\$2[aby]\$\S+$`)
	if !hashLine.Match(example) {
		t.Fatal("examples/web-config.yml has no bcrypt hash for user prometheus")
	}
	cfg := filepath.Join(dir, "web-config.yml")
	withHash := hashLine.ReplaceAllFunc(example, func(line []byte) []byte {
		return append(hashLine.FindSubmatch(line)[1], hash...)
	})
	if err := os.WriteFile(cfg, withHash, 0o600); err != nil {
		t.Fatal(err)
	}

	url := serveFake(t, startFake(t))
	p := exportertest.Start(t, nil, "--woox.api-url="+url, "--web.config.file="+cfg)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	try := func(path, user, pass string) (int, error) {
		req, err := http.NewRequest(http.MethodGet, "https://"+p.Addr+path, nil)
		if err != nil {
			return 0, err
		}
		if user != "" {
			req.SetBasicAuth(user, pass)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	get := func(path, user, pass string) int {
		t.Helper()
		code, err := try(path, user, pass)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		return code
	}
	deadline := time.Now().Add(20 * time.Second)
	for code, _ := try("/-/ready", "prometheus", password); code != http.StatusOK; code, _ = try("/-/ready", "prometheus", password) {
		if time.Now().After(deadline) {
			t.Fatalf("not ready over TLS with the password:\n%s", p.Output())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, path := range []string{"/metrics", "/-/healthy", "/-/ready", "/"} {
		if code := get(path, "prometheus", password); code != http.StatusOK {
			t.Errorf("%s with the password: %d", path, code)
		}
		if code := get(path, "", ""); code != http.StatusUnauthorized {
			t.Errorf("%s without a password: %d, want 401", path, code)
		}
		if code := get(path, "prometheus", "wrong"); code != http.StatusUnauthorized {
			t.Errorf("%s with a wrong password: %d, want 401", path, code)
		}
	}
	// Plain HTTP gets no metrics.
	if resp, err := http.Get("http://" + p.Addr + "/metrics"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Error("plain HTTP served the metrics")
		}
	}
	p.Stop(t)
}

// writeCertificate writes a self-signed certificate for 127.0.0.1 and its
// key as dir/woox_exporter.crt and .key, and returns a pool trusting it.
func writeCertificate(t *testing.T, dir string) *x509.CertPool {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "woox_exporter e2e"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	for name, b := range map[string][]byte{
		"woox_exporter.crt": certPEM,
		"woox_exporter.key": pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(bytes.Clone(certPEM)) {
		t.Fatal("certificate does not parse")
	}
	return pool
}

// The example web config with the password itself where its hash belongs:
// the start and --config.check refuse it naming the user and how to make
// the hash, not with bcrypt's "hashedSecret too short".
func TestWebConfigWithAPlainPasswordIsRefusedSayingHowToHash(t *testing.T) {
	example, err := os.ReadFile("../examples/web-config.yml")
	if err != nil {
		t.Fatal(err)
	}
	plain := regexp.MustCompile(`(?m)^(\s+prometheus: ).*$`).ReplaceAll(example, []byte("${1}my-password"))
	cfg := filepath.Join(t.TempDir(), "web-config.yml")
	if err := os.WriteFile(cfg, plain, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, check := range []bool{true, false} {
		args := []string{"--web.config.file=" + cfg, "--web.listen-address=127.0.0.1:0"}
		if check {
			args = append(args, "--config.check")
		}
		out, err := exec.Command(exportertest.Binary(t), args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), `the password of user "prometheus" is not a bcrypt hash`) ||
			!strings.Contains(string(out), `htpasswd -nBC 10 "" | tr -d ':\n'`) {
			t.Errorf("%v: %v, want a refusal naming the user and how to hash:\n%s", args, err, out)
		}
		if strings.Contains(string(out), "my-password") {
			t.Errorf("%v shows the password:\n%s", args, out)
		}
	}
}
