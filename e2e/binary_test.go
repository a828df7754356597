package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// The fake answers in the shapes captured from the real exchange (sub-accounts
// named name, fee rates in basis points, wallet tokens as network-token ids,
// wallet times in seconds), and again with every number a JSON string, as
// real answers from October 2025 on: the binary exports the same values.
func TestBinaryExportsEveryAreaFromTheFakeExchange(t *testing.T) {
	eachCapturedEncoding(t, binaryExportsEveryArea)
}

func binaryExportsEveryArea(t *testing.T, url string) {
	cfg := everyAreaConfig(t)
	p := exportertest.Start(t, []string{"SUB_SECRET=" + fakeexchange.DefaultSubSecret},
		"--woox.api-url="+url, "--config.file="+cfg, "--collector.sub-accounts")
	p.WaitReady(t)
	samples := p.Scrape(t)

	for _, want := range []struct {
		series string
		value  float64
	}{
		{`woox_poll_success{account="", endpoint="token_network"}`, 1},
		{`woox_poll_success{account="main", endpoint="credentials"}`, 1},
		{`woox_poll_success{account="main", endpoint="token_history"}`, 1},
		{`woox_poll_success{account="sub", endpoint="token_history"}`, 1},
		{`woox_token_network_withdrawal_enabled{network="BSC", protocol="BEP20", token="WOO"}`, 0},
		{`woox_token_network_withdrawal_fee{network="ETH", protocol="ERC20", token="USDT"}`, 1.5},
		{`woox_exporter_api_key_permission{account="main", permission="READ"}`, 1},
		{`woox_exporter_api_key_permission{account="main", permission="WITHDRAWAL"}`, 0},
		{`woox_token_history_inflow_total{account="main", token="USDT", transaction_type="DEPOSIT"}`, 2500},
		{`woox_token_history_outflow_total{account="main", token="USDT", transaction_type="WITHDRAW"}`, 300},
		{`woox_exchange_status{status="normal"}`, 1},
		{`woox_exchange_status{status="system_maintenance"}`, 0},
		{`woox_account_info{account="main", account_mode="FUTURES", position_mode="ONE_WAY"}`, 1},
		{`woox_account_margin_ratio{account="main"}`, 2.5},
		{`woox_account_open_margin_ratio{account="main"}`, 2.4},
		{`woox_account_initial_margin_ratio{account="main"}`, 0.1},
		{`woox_account_maintenance_margin_ratio{account="main"}`, 0.03},
		{`woox_account_leverage{account="main"}`, 10},
		{`woox_account_total_collateral{account="main"}`, 12500.5},
		{`woox_account_free_collateral{account="main"}`, 9000},
		{`woox_account_value{account="main"}`, 12600.25},
		{`woox_account_fee_rate{account="main", market="spot", side="taker"}`, 0.0005},
		{`woox_account_fee_rate{account="main", market="spot", side="maker"}`, 0.0002},
		{`woox_account_fee_rate{account="main", market="futures", side="taker"}`, 0.0006},
		{`woox_account_fee_rate{account="main", market="futures", side="maker"}`, 0.0001},
		{`woox_account_info{account="sub", account_mode="PURE_SPOT", position_mode="ONE_WAY"}`, 1},
		{`woox_balance_holding{account="main", token="USDT"}`, 2186.25},
		{`woox_balance_frozen{account="main", token="USDT"}`, 300},
		{`woox_balance_staked{account="main", token="USDT"}`, 100},
		{`woox_balance_available{account="main", token="USDT"}`, 1786.25},
		{`woox_balance_mark_price{account="main", token="BTC"}`, 65000.5},
		{`woox_balance_holding{account="sub", token="ETH"}`, 1.5},
		{`woox_token_network_minimum_withdrawal{network="TRON", protocol="TRC20", token="USDT"}`, 2},
		{`woox_token_network_deposit_enabled{network="SOL", protocol="SOL", token="SOL"}`, 0},
		{`woox_wallet_transfers_in_flight{account="main", network="TRON", side="WITHDRAW", status="PROCESSING", token="USDT"}`, 1},
		{`woox_wallet_transfers_in_flight{account="main", network="ARB", side="DEPOSIT", status="CONFIRMING", token="ETH"}`, 1},
		{`woox_wallet_transfers_in_flight_by_side{account="main", side="WITHDRAW"}`, 1},
		{`woox_wallet_transfers_in_flight_by_side{account="main", side="DEPOSIT"}`, 1},
		{`woox_wallet_transfers_in_flight_by_side{account="sub", side="DEPOSIT"}`, 0},
		{`woox_wallet_transfers_in_flight_by_side{account="sub", side="WITHDRAW"}`, 0},
		{`woox_sub_account_info{account="main", sub_account_id="6b43de5c-0955-4887-9862-d84e4689f9fe", sub_account_name="Sub-1"}`, 1},
		{`woox_poll_success{account="sub", endpoint="sub_accounts"}`, 1},
		{`woox_poll_failures_total{account="main", endpoint="balances", reason="rate_limited"}`, 0},
		{`woox_poll_failures_total{account="", endpoint="token_network", reason="stalled"}`, 0},
	} {
		s, ok := samples[want.series]
		if !ok {
			t.Errorf("missing %s", want.series)
			continue
		}
		if float64(s.Value) != want.value {
			t.Errorf("%s = %v, want %v", want.series, s.Value, want.value)
		}
	}
	// Created two hours before the fake was built, by its clock.
	oldest := samples[`woox_wallet_oldest_in_flight_timestamp_seconds{account="main", side="WITHDRAW"}`]
	if age := time.Since(time.Unix(int64(oldest.Value), 0)); age < 2*time.Hour-time.Minute || age > 2*time.Hour+time.Minute {
		t.Errorf("oldest withdrawal in flight created %v ago, want 2h", age)
	}
	for series := range samples {
		if strings.HasPrefix(series, "woox_wallet_") && !strings.HasPrefix(series, "woox_wallet_transfers_in_flight_by_side") && strings.Contains(series, `account="sub"`) ||
			strings.HasPrefix(series, "woox_sub_account_info") && strings.Contains(series, `account="sub"`) ||
			strings.Contains(series, `status="COMPLETED"`) {
			t.Errorf("unexpected %s", series)
		}
		if strings.Contains(series, fakeexchange.DefaultMainReadKey) {
			t.Errorf("unmasked API key in %s", series)
		}
	}
	if _, body, _ := p.Get("/"); !strings.Contains(body, "/metrics") || strings.Contains(body, "debug/pprof") ||
		!strings.Contains(body, "version=devel") {
		t.Errorf("landing page does not link the metrics, links profiles it does not serve, or has no version:\n%s", body)
	}
	if code, _, _ := p.Get("/debug/pprof/heap"); code != http.StatusNotFound {
		t.Errorf("/debug/pprof/heap = %d, want 404", code)
	}
	if code, _, _ := p.Get("/-/healthy"); code != 200 {
		t.Errorf("/-/healthy = %d", code)
	}
	p.Stop(t)
	if n := strings.Count(p.Output(), "refused this account's key on the sub-accounts endpoint"); n != 1 {
		t.Errorf("the sub-account's refused key logged %d times, want once:\n%s", n, p.Output())
	}
	for _, secret := range []string{fakeexchange.DefaultMainReadSecret, fakeexchange.DefaultSubSecret} {
		if strings.Contains(p.Output(), secret) {
			t.Errorf("secret in the log")
		}
	}
}

func TestBinaryWithoutCredentialsExportsPublicNetworksOnly(t *testing.T) {
	url := serveFake(t, startFake(t))
	p := exportertest.Start(t, nil, "--woox.api-url="+url)
	p.WaitReady(t)
	samples := p.Scrape(t)
	var networks, private int
	for series := range samples {
		switch {
		case strings.HasPrefix(series, "woox_token_network_info"):
			networks++
		case strings.HasPrefix(series, "woox_api_key_"), strings.HasPrefix(series, "woox_token_history_"):
			private++
		}
	}
	if networks == 0 || private != 0 {
		t.Errorf("%d network series and %d private series, want some and none", networks, private)
	}
	p.Stop(t)
}

// A slow exchange keeps the exporter unready until the first poll ends.
func TestBinaryIsNotReadyBeforeTheFirstPoll(t *testing.T) {
	fake := startFake(t)
	fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultLatency, Delay: 2 * time.Second, Count: 1})
	url := serveFake(t, fake)
	p := exportertest.Start(t, nil, "--woox.api-url="+url)
	deadline := time.Now().Add(10 * time.Second)
	var sawUnready bool
	for time.Now().Before(deadline) {
		code, _, err := p.Get("/-/ready")
		if err == nil && code == http.StatusServiceUnavailable {
			sawUnready = true
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !sawUnready {
		t.Fatalf("never answered 503 while the first poll was pending\n%s", p.Output())
	}
	p.WaitReady(t)
}

func TestBinaryRefusesBadConfigurationBeforeListening(t *testing.T) {
	bin := exportertest.Binary(t)
	badSecret := writeSecret(t, "S3CRET-VALUE-IN-FILE")
	// The account endpoints are held to their limits once an account is configured.
	account := []string{"WOOX_API_KEY=abc", "WOOX_API_SECRET=S3CRET-VALUE"}
	if err := os.Chmod(badSecret, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	unknownField := filepath.Join(dir, "unknown-field.yml")
	if err := os.WriteFile(unknownField, []byte("accounts:\n  - name: main\n    api_key: abc\n    api_secret_env: MAIN_SECRET\n    region: eu\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	oneKeyTwice := filepath.Join(dir, "one-key-twice.yml")
	if err := os.WriteFile(oneKeyTwice, []byte("accounts:\n  - {name: main, api_key: abc, api_secret_env: MAIN_SECRET}\n  - {name: hedge, api_key: abc, api_secret_env: MAIN_SECRET}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	badIndent := filepath.Join(dir, "bad-indent.yml")
	if err := os.WriteFile(badIndent, []byte("accounts:\n  - name: main\n    api_key: abc\n    api_secret_env: MAIN_SECRET\n  - name: b\n   api_key: k\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	validConfig := filepath.Join(dir, "valid.yml")
	if err := os.WriteFile(validConfig, []byte("accounts:\n  - {name: main, api_key: abc, api_secret_env: MAIN_SECRET}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	inlineSecret := filepath.Join(dir, "inline-secret.yml")
	if err := os.WriteFile(inlineSecret, []byte("accounts:\n  - name: main\n    api_key: abc\n    api_secret: S3CRET-VALUE-IN-FILE\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	notADir := filepath.Join(dir, "plain-file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// Unreadable secret files that stay unreadable for root, which CI runs as.
	// The directory holds the secret, to show that nothing inside is read out.
	secretDir := filepath.Join(dir, "secret-dir")
	if err := os.Mkdir(secretDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secretDir, "secret"), []byte("S3CRET-VALUE-IN-FILE\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	secretDirConfig := filepath.Join(dir, "secret-dir.yml")
	if err := os.WriteFile(secretDirConfig, []byte("accounts:\n  - name: main\n    api_key: abc\n    api_secret_file: "+secretDir+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	webBadYAML := filepath.Join(dir, "web-bad-yaml.yml")
	if err := os.WriteFile(webBadYAML, []byte("tls_server_config: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	webUnknownField := filepath.Join(dir, "web-unknown-field.yml")
	if err := os.WriteFile(webUnknownField, []byte("tls_server_cfg:\n  cert_file: cert.pem\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	webMissingCert := filepath.Join(dir, "web-missing-cert.yml")
	if err := os.WriteFile(webMissingCert, []byte("tls_server_config:\n  cert_file: "+filepath.Join(dir, "no-cert.pem")+"\n  key_file: "+filepath.Join(dir, "no-key.pem")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	webPlainPassword := filepath.Join(dir, "web-plain-password.yml")
	if err := os.WriteFile(webPlainPassword, []byte("basic_auth_users:\n  prometheus: not-a-bcrypt-hash\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A FIFO blocks whoever opens it for reading; /dev/null stands for the
	// devices (/dev/zero never ends).
	fifo := filepath.Join(dir, "fifo.yml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	bigFile := filepath.Join(dir, "big.yml")
	if err := os.WriteFile(bigFile, bytes.Repeat([]byte("# padding\n"), 200<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	// Every case points at this exchange: none may poll it.
	var polls atomic.Int64
	exchange := serveFake(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		polls.Add(1)
		http.Error(w, "unexpected request", http.StatusTeapot)
	}))
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"interval too short", account, []string{"--token-history.interval=5s"}, "--token-history.interval 5s does not fit the API budget"},
		{"interval of a new endpoint too short", account, []string{"--positions.interval=500ms"}, "--positions.interval 500ms does not fit the API budget (15 of 30/10s per account"},
		{"interval of a collector turned on too short", account, []string{"--collector.sub-accounts", "--sub-accounts.interval=5s"}, "--sub-accounts.interval 5s does not fit the API budget"},
		{"interval too short for its rate limit flag", account, []string{"--balances.rate-limit=10/60s", "--balances.interval=5s"}, "--balances.interval 5s does not fit the API budget (5 of 10/60s per account and endpoint, from --balances.rate-limit"},
		{"public interval too short", nil, []string{"--system-info.interval=100ms"}, "--system-info.interval 100ms does not fit the API budget (5 of 10/1s per IP"},
		{"bad rate limit of an endpoint", nil, []string{"--positions.rate-limit=30"}, "--positions.rate-limit"},
		{"zero wallet lookback", nil, []string{"--wallet.lookback=0s"}, "--wallet.lookback 0s: must be greater than 0"},
		{"zero series per endpoint", nil, []string{"--limits.series-per-endpoint=0"}, "--limits.series-per-endpoint 0: must be greater than 0"},
		{"negative series per endpoint", nil, []string{"--limits.series-per-endpoint=-5"}, "--limits.series-per-endpoint -5: must be greater than 0"},
		{"wallet lookback not a duration", nil, []string{"--wallet.lookback=week"}, "--wallet.lookback"},
		{"everything turned off", nil, everyPublicEndpointOff(), "nothing to poll"},
		{"bad rate limit", nil, []string{"--api.rate-limit=ten"}, "--api.rate-limit"},
		{"budget above one", nil, []string{"--api.budget=1.5"}, "--api.budget"},
		{"key without secret", []string{"WOOX_API_KEY=abc"}, nil, "WOOX_API_SECRET"},
		{"secret file readable by others", []string{"WOOX_API_KEY=abc", "WOOX_API_SECRET_FILE=" + badSecret}, nil, "WOOX_API_SECRET_FILE: secret file has mode 0644 and is readable by other users; run chmod o-rwx on it"},
		{"missing config file", nil, []string{"--config.file=/nonexistent/woox.yml"}, "/nonexistent/woox.yml"},
		{"unknown flag", nil, []string{"--no-such-flag"}, "no-such-flag"},
		{"unknown config field", []string{"MAIN_SECRET=S3CRET-VALUE-IN-FILE"}, []string{"--config.file=" + unknownField}, "unknown field"},
		{"YAML mistake on line 6", nil, []string{"--config.file=" + badIndent}, "bad-indent.yml:6: invalid YAML"},
		{"flag value that does not parse", nil, []string{"--api.timeout=soon"}, "--api.timeout: time: invalid duration"},
		{"one API key under two account names", []string{"MAIN_SECRET=S3CRET-VALUE-IN-FILE"}, []string{"--config.file=" + oneKeyTwice},
			`one-key-twice.yml:3: accounts[1].api_key: the same API key as account "main" (line 2)`},
		{"account variables beside a config file", []string{"MAIN_SECRET=S3CRET-VALUE-IN-FILE", "WOOX_API_KEY=abc"}, []string{"--config.file=" + validConfig},
			"WOOX_API_KEY is set beside --config.file"},
		{"secret inline in the config", nil, []string{"--config.file=" + inlineSecret}, "secrets are not accepted in the config file"},
		{"unreadable secret file", []string{"WOOX_API_KEY=abc", "WOOX_API_SECRET_FILE=" + filepath.Join(dir, "missing-secret")}, nil, "WOOX_API_SECRET_FILE: read secret file: no such file or directory"},
		{"secret file is a directory", []string{"WOOX_API_KEY=abc", "WOOX_API_SECRET_FILE=" + secretDir}, nil, "WOOX_API_SECRET_FILE: secret file is not a regular file"},
		{"secret file below a plain file", []string{"WOOX_API_KEY=abc", "WOOX_API_SECRET_FILE=" + filepath.Join(notADir, "secret")}, nil, "WOOX_API_SECRET_FILE: read secret file: not a directory"},
		{"config secret file is a directory", nil, []string{"--config.file=" + secretDirConfig}, "secret-dir.yml:4: accounts[0].api_secret_file: secret file is not a regular file"},
		{"negative overlap", nil, []string{"--token-history.overlap=-1m"}, "--token-history.overlap"},
		{"state file directory missing", nil, []string{"--token-history.state-file=" + filepath.Join(dir, "no-such-dir", "state.json")}, "--token-history.state-file"},
		{"state file directory is a file", nil, []string{"--token-history.state-file=" + filepath.Join(notADir, "state.json")}, "--token-history.state-file"},
		{"web config file missing", nil, []string{"--web.config.file=" + filepath.Join(dir, "no-web.yml")}, "--web.config.file " + filepath.Join(dir, "no-web.yml")},
		{"web config not YAML", nil, []string{"--web.config.file=" + webBadYAML}, "--web.config.file " + webBadYAML},
		{"web config unknown field", nil, []string{"--web.config.file=" + webUnknownField}, "tls_server_cfg"},
		{"web config certificate missing", nil, []string{"--web.config.file=" + webMissingCert}, "no-cert.pem"},
		{"web config password not hashed", nil, []string{"--web.config.file=" + webPlainPassword}, "--web.config.file " + webPlainPassword},
		{"telemetry path empty", nil, []string{"--web.telemetry-path="}, "--web.telemetry-path"},
		{"telemetry path relative", nil, []string{"--web.telemetry-path=metrics"}, "--web.telemetry-path"},
		{"telemetry path is the health check", nil, []string{"--web.telemetry-path=/-/healthy"}, "--web.telemetry-path"},
		{"telemetry path is the readiness check", nil, []string{"--web.telemetry-path=/-/ready"}, "--web.telemetry-path"},
		{"telemetry path with a method", nil, []string{"--web.telemetry-path=GET /metrics"}, "--web.telemetry-path"},
		{"telemetry path with a wildcard", nil, []string{"--web.telemetry-path=/metrics/{x}"}, "--web.telemetry-path"},
		{"exchange URL not http", nil, []string{"--woox.api-url=ftp://x"}, "--woox.api-url"},
		{"exchange URL without host", nil, []string{"--woox.api-url=https://"}, "--woox.api-url"},
		{"exchange URL with a path", nil, []string{"--woox.api-url=https://api.woox.io/v3"}, "no path"},
		{"exchange URL with a query", nil, []string{"--woox.api-url=https://api.woox.io?x=1"}, "no path, query"},
		{"listen address without port", nil, []string{"--web.listen-address=notanaddr"}, "--web.listen-address"},
		{"listen address with a bad port", nil, []string{"--web.listen-address=127.0.0.1:99999"}, "--web.listen-address"},
		{"zero request timeout", nil, []string{"--api.timeout=0s"}, "--api.timeout"},
		{"systemd socket without a socket", nil, []string{"--web.systemd-socket"}, "--web.systemd-socket"},
		{"config file is a FIFO", nil, []string{"--config.file=" + fifo}, "config file " + fifo + " is not a regular file"},
		{"config file is a device", nil, []string{"--config.file=" + os.DevNull}, "config file " + os.DevNull + " is not a regular file"},
		{"config file too large", nil, []string{"--config.file=" + bigFile}, "config file " + bigFile + " is larger than 1048576 bytes"},
		{"web config is a FIFO", nil, []string{"--web.config.file=" + fifo}, "--web.config.file " + fifo + ": not a regular file"},
		{"web config is a device", nil, []string{"--web.config.file=" + os.DevNull}, "--web.config.file " + os.DevNull + ": not a regular file"},
		{"web config too large", nil, []string{"--web.config.file=" + bigFile}, "--web.config.file " + bigFile + ": larger than 1048576 bytes"},
		{"negative request timeout", nil, []string{"--api.timeout=-1s"}, "--api.timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := freeAddr(t)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			args := []string{"--web.listen-address=" + addr}
			if !slices.ContainsFunc(tc.args, func(a string) bool { return strings.HasPrefix(a, "--woox.api-url=") }) {
				args = append(args, "--woox.api-url="+exchange)
			}
			cmd := exec.CommandContext(ctx, bin, append(args, tc.args...)...)
			cmd.Env = tc.env
			var output testsupport.SyncBuffer
			cmd.Stdout, cmd.Stderr = &output, &output
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			// Nothing may listen, not even briefly, before the error.
			var err error
		watch:
			for {
				select {
				case err = <-exited:
					break watch
				default:
				}
				if c, derr := net.DialTimeout("tcp", addr, 50*time.Millisecond); derr == nil {
					c.Close()
					t.Errorf("something listens on %s before the error", addr)
				}
				time.Sleep(5 * time.Millisecond)
			}
			out := []byte(output.String())
			if err == nil {
				t.Fatalf("exited 0:\n%s", out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("output does not mention %q:\n%s", tc.want, out)
			}
			if lines := strings.Count(strings.TrimSpace(string(out)), "\n") + 1; lines > 3 {
				t.Errorf("want one clear error, got %d lines:\n%s", lines, out)
			}
			if strings.Contains(string(out), "S3CRET-VALUE-IN-FILE") {
				t.Error("secret in the error")
			}
			if strings.Contains(string(out), "Listening on") {
				t.Errorf("logged that it listens before the error:\n%s", out)
			}
			if n := polls.Swap(0); n > 0 {
				t.Errorf("%d requests reached the exchange before the error", n)
			}
		})
	}
}

func TestConfigCheckValidatesAndExits(t *testing.T) {
	bin := exportertest.Binary(t)
	cfg := filepath.Join(t.TempDir(), "woox.yml")
	if err := os.WriteFile(cfg, []byte("accounts:\n  - name: main\n    api_key: abc\n    api_secret_env: MAIN_SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config.file="+cfg, "--config.check")
	cmd.Env = []string{"MAIN_SECRET=xyz"}
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "1 account") {
		t.Errorf("valid config: %v\n%s", err, out)
	}
	// Group-readable, as Kubernetes mounts a secret with defaultMode 0440 and
	// fsGroup for a non-root container.
	groupSecret := writeSecret(t, "xyz")
	if err := os.Chmod(groupSecret, 0o440); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(bin, "--config.check")
	cmd.Env = []string{"WOOX_API_KEY=abc", "WOOX_API_SECRET_FILE=" + groupSecret}
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "1 account") {
		t.Errorf("group-readable secret file: %v\n%s", err, out)
	}

	cmd = exec.Command(bin, "--config.file="+cfg, "--config.check")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "woox.yml:4: accounts[0].api_secret_env: the environment variable it names is not set") {
		t.Errorf("missing env secret: %v\n%s", err, out)
	}

	// What the exporter would only meet once running is checked too.
	webConfig := filepath.Join(t.TempDir(), "web.yml")
	if err := os.WriteFile(webConfig, []byte("tls_server_config:\n  cert_file: missing.pem\n  key_file: missing.key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for flag, arg := range map[string]string{
		"--web.config.file":          webConfig,
		"--token-history.state-file": filepath.Join(t.TempDir(), "no-such-dir", "state.json"),
		"--web.telemetry-path":       "/-/ready",
		"--woox.api-url":             "ftp://x",
		"--web.listen-address":       "notanaddr",
		"--api.timeout":              "0s",
	} {
		cmd = exec.Command(bin, "--config.file="+cfg, "--config.check", flag+"="+arg)
		cmd.Env = []string{"MAIN_SECRET=xyz"}
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), flag) || strings.Contains(string(out), "OK") {
			t.Errorf("--config.check with a bad %s: %v\n%s", flag, err, out)
		}
	}
}

// --credentials.show-full-key puts whole keys into the api_key label;
// without it every key is masked, and keys that mask alike carry the first
// four hex digits of their own SHA-256.
func TestBinaryShowsFullKeysOnlyWhenAsked(t *testing.T) {
	url := serveFake(t, startFake(t))
	dir := t.TempDir()
	fullKeys := []string{fakeexchange.DefaultMainKey, fakeexchange.DefaultMainReadKey, fakeexchange.DefaultMainTradeKey}
	for _, tc := range []struct {
		args []string
		want []string // api_key labels of account "main"
	}{
		{[]string{"--credentials.show-full-key"}, fullKeys},
		{nil, maskedAlike(fullKeys)},
	} {
		p := exportertest.Start(t, defaultSecrets, append([]string{"--woox.api-url=" + url, "--config.file=" + accountsConfig(t, dir, "main")}, tc.args...)...)
		p.WaitReady(t)
		_, body, err := p.Get("/metrics")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for series, s := range p.Scrape(t) {
			if strings.HasPrefix(series, "woox_api_key_info{") && s.Metric["account"] == "main" {
				got = append(got, string(s.Metric["api_key"]))
			}
		}
		slices.Sort(got)
		if want := slices.Sorted(slices.Values(tc.want)); !slices.Equal(got, want) {
			t.Errorf("%v: api_key labels %q, want %q", tc.args, got, want)
		}
		if len(tc.args) == 0 {
			for _, key := range fullKeys {
				if strings.Contains(body, key) {
					t.Errorf("without --credentials.show-full-key the metrics hold the whole key %s", key)
				}
			}
		}
		p.Stop(t)
	}
}

// maskedAlike is the api_key label of each of keys, which all mask as
// "fake...ey==": the mask, "~" and the key's own hash prefix.
func maskedAlike(keys []string) []string {
	var labels []string
	for _, k := range keys {
		sum := sha256.Sum256([]byte(k))
		labels = append(labels, "fake...ey==~"+hex.EncodeToString(sum[:2]))
	}
	return labels
}

// With --web.systemd-socket the exporter serves on the socket systemd hands
// it (LISTEN_FDS, LISTEN_PID) and listens on nothing else.
func TestBinaryServesOnASystemdSocket(t *testing.T) {
	bin := exportertest.Binary(t)
	url := serveFake(t, startFake(t))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f, err := l.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	unused := freeAddr(t)
	// systemd sets LISTEN_PID to the exporter's own pid: exec keeps the
	// shell's.
	cmd := exec.Command("/bin/sh", "-c", `LISTEN_PID=$$ exec "$0" "$@"`, bin,
		"--web.systemd-socket", "--web.listen-address="+unused, "--woox.api-url="+url)
	cmd.Env = []string{"LISTEN_FDS=1"}
	cmd.ExtraFiles = []*os.File{f} // fd 3, SD_LISTEN_FDS_START
	p, err := exportertest.StartCommand(cmd, l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.WaitReady(t)
	if c, err := net.DialTimeout("tcp", unused, 100*time.Millisecond); err == nil {
		c.Close()
		t.Errorf("also listens on --web.listen-address %s", unused)
	}
	p.Stop(t)
}

// Our log lines and exporter-toolkit's carry one timestamp key, "time", in
// both formats.
func TestBinaryLogsOneTimestampKey(t *testing.T) {
	url := serveFake(t, startFake(t))
	for _, format := range []string{"logfmt", "json"} {
		p := exportertest.Start(t, nil, "--woox.api-url="+url, "--log.format="+format)
		p.WaitReady(t)
		p.Stop(t)
		var ours, toolkit int
		for _, line := range strings.Split(strings.TrimSpace(p.Output()), "\n") {
			var keys map[string]any
			if format == "json" {
				if err := json.Unmarshal([]byte(line), &keys); err != nil {
					t.Fatalf("%s: not JSON: %s", format, line)
				}
			} else {
				keys = map[string]any{}
				for _, f := range strings.Fields(line) {
					if k, _, ok := strings.Cut(f, "="); ok {
						keys[k] = true
					}
				}
			}
			if _, ok := keys["time"]; !ok {
				t.Errorf("%s: no time key: %s", format, line)
			}
			if _, ok := keys["ts"]; ok {
				t.Errorf("%s: a second timestamp key: %s", format, line)
			}
			if strings.Contains(line, "starting woox_exporter") {
				ours++
			}
			if strings.Contains(line, "Listening on") {
				toolkit++
			}
		}
		if ours == 0 || toolkit == 0 {
			t.Errorf("%s: want a line of ours and one of exporter-toolkit's:\n%s", format, p.Output())
		}
	}
}

// everyPublicEndpointOff turns off every public endpoint of the table: with
// no account configured, nothing is left to poll.
func everyPublicEndpointOff() []string {
	var args []string
	for _, ep := range endpoint.All {
		if !ep.PerAccount {
			args = append(args, "--no-collector."+ep.CollectorName())
		}
	}
	return args
}
