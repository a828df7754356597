package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

var listenLine = regexp.MustCompile(`msg=listening address=(\S+)`)

// TestCommandServesAndStopsOnSIGTERM builds the binary, starts it on a free
// loopback port, fetches token networks and expects a clean exit on SIGTERM.
func TestCommandServesAndStopsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "fakeexchange")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--listen", "127.0.0.1:0", "--rate-limit", "5/60s")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() //nolint:errcheck // best effort if the test fails early

	addrc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listenLine.FindStringSubmatch(sc.Text()); m != nil {
				addrc <- m[1]
			}
		}
	}()
	var addr string
	select {
	case addr = <-addrc:
	case <-time.After(30 * time.Second):
		t.Fatal("no listening log line")
	}

	resp, err := http.Get("http://" + addr + "/v3/public/tokenNetwork")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"token":"USDT"`) {
		t.Fatalf("status %d body %.200s", resp.StatusCode, body)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit within 10s of SIGTERM")
	}
}

func TestRunRejectsBadFlagsAndScenario(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("accounts: [{name: ''}]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--rate-limit", "ten"},
		{"--scenario", bad},
		{"--listen", "127.0.0.1:99999"},
		{"--no-such-flag"},
	} {
		if err := run(context.Background(), args, io.Discard); err == nil {
			t.Errorf("run(%q): no error", args)
		}
	}
}

func TestRunStopsWhenContextIsDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--listen", "127.0.0.1:0"}, io.Discard) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return")
	}
}

// The command serves the scenario modes its YAML file sets.
func TestRunServesScenarioModesFromYAML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "modes.yaml")
	const scenario = `
signature_query: sorted
row_time_unit: s_fraction
malformed_ids: [2]
late_listing: {share: 1, delay: 1m}
unstable_tie_order: true
page_cap: 1
understate_total: 1
clamp_pages: true
shared_ids: true
error_timestamp: {offset: -1h, unit: us}
system_status: {status: 2, msg: down, estimated_end_time: 1749963600362}
accounts:
  - name: main
    keys: [{api_key: k, api_secret: s, permissions: [READ]}]
    history:
      - {id: 1, type: DEPOSIT, token: USDT, amount: "1", timestamp: 1579399877041}
      - {id: 2, type: DEPOSIT, token: USDT, amount: "2", timestamp: 1579399877042}
      - {id: 2, type: DEPOSIT, token: BTC, amount: "3", timestamp: 1579399877042}
`
	if err := os.WriteFile(path, []byte(scenario), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logR, logW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--listen", "127.0.0.1:0", "--scenario", path}, logW)
		logW.Close()
	}()
	addrc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(logR)
		for sc.Scan() {
			if m := listenLine.FindStringSubmatch(sc.Text()); m != nil {
				addrc <- m[1]
			}
		}
	}()
	var base string
	select {
	case addr := <-addrc:
		base = "http://" + addr
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no listening log line")
	}

	get := func(path, query string, signedQuery string) string {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, base+path+"?"+query, nil)
		if err != nil {
			t.Fatal(err)
		}
		ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
		req.Header.Set("x-api-key", "k")
		req.Header.Set("x-api-timestamp", ts)
		req.Header.Set("x-api-signature", fakeexchange.Sign("s", ts, http.MethodGet, path, signedQuery))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if body := get(endpoint.PathOf(endpoint.SystemInfo), "", ""); !strings.Contains(body, `"data":{"status":2,"msg":"down","estimatedEndTime":1749963600362}`) {
		t.Errorf("system info: %s", body)
	}
	// Sorted signing: the unsorted bytes as sent are refused, with a bogus
	// error timestamp; the sorted ones pass.
	if body := get(endpoint.PathOf(endpoint.TokenHistory), "size=5&page=9", "size=5&page=9"); !strings.Contains(body, `"code":-1001`) || !strings.Contains(body, `"timestamp":`) {
		t.Errorf("unsorted signature: %s", body)
	}
	// One row a page (cap), page 9 clamped to the last, total understated,
	// row times in seconds with a fraction; id 2's legs spoiled on page 1.
	body := get(endpoint.PathOf(endpoint.TokenHistory), "page=9&size=5", "page=9&size=5")
	for _, want := range []string{
		`"rows":[{"id":1,"type":"DEPOSIT","token":"USDT","amount":"1","timestamp":"1579399877.041"}]`,
		`"meta":{"total":2,"recordsPerPage":5,"currentPage":3}`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("history page: %s, want %s", body, want)
		}
	}
	if body := get(endpoint.PathOf(endpoint.TokenHistory), "page=1&size=5", "page=1&size=5"); !strings.Contains(body, `"amount":"1.2.3"`) {
		t.Errorf("malformed id 2 not served: %s", body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return")
	}
}
