package fakeexchange

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

var testStart = time.UnixMilli(1721295317627)

type harness struct {
	t     *testing.T
	ex    *Exchange
	srv   *httptest.Server
	clock *testsupport.Clock
}

func newHarness(t *testing.T, s *Scenario, opts ...Option) *harness {
	t.Helper()
	clock := testsupport.NewClock(testStart)
	ex, err := New(s, append([]Option{WithClock(clock.Now)}, opts...)...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(ex)
	t.Cleanup(srv.Close)
	return &harness{t: t, ex: ex, srv: srv, clock: clock}
}

// testScenario has two accounts, "a" with two READ keys and "b" with one,
// plus key "a-trade" without READ and "a-ip" restricted to 10.0.0.1.
func testScenario() *Scenario {
	return &Scenario{
		Accounts: []Account{
			{Name: "a", AccountName: "Alpha", UserID: 1, Keys: []Key{
				{APIKey: "a1", APISecret: "s-a1", Permissions: []string{"READ"}},
				{APIKey: "a2", APISecret: "s-a2", Permissions: []string{"READ", "TRADE"}, AllowedIPs: []string{"127.0.0.1", "::1"}},
				{APIKey: "a-trade", APISecret: "s-at", Permissions: []string{"TRADE"}},
				{APIKey: "a-ip", APISecret: "s-ip", Permissions: []string{"READ"}, AllowedIPs: []string{"10.0.0.1"}},
			}},
			{Name: "b", AccountName: "Beta", UserID: 2, Keys: []Key{
				{APIKey: "b1", APISecret: "s-b1", Permissions: []string{"READ"}},
			}},
		},
		TokenNetworks: []TokenNetworkRow{
			{Token: "USDT", Network: "ETH", Protocol: "ERC20", Name: "Ethereum", MinimumWithdrawal: "10.00000000", WithdrawalFee: "1.5", AllowDeposit: 1, AllowWithdraw: 0},
		},
	}
}

var secrets = map[string]string{"a1": "s-a1", "a2": "s-a2", "a-trade": "s-at", "a-ip": "s-ip", "b1": "s-b1"}

type reply struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body with numbers kept as json.Number.
func (r reply) json(t *testing.T) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("decode %q: %v", r.body, err)
	}
	return m
}

// code returns the error code of an error answer, as text.
func (r reply) code(t *testing.T) string {
	t.Helper()
	m := r.json(t)
	if m["success"] != false {
		t.Fatalf("want success:false, got %s", r.body)
	}
	switch c := m["code"].(type) {
	case json.Number:
		return c.String()
	case string:
		return c
	}
	t.Fatalf("no code in %s", r.body)
	return ""
}

func (h *harness) do(req *http.Request) reply {
	h.t.Helper()
	resp, err := h.srv.Client().Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatalf("read body: %v", err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

// signedRequest builds a GET signed with key's secret at the fake's clock.
func (h *harness) signedRequest(path, rawQuery, key string) *http.Request {
	h.t.Helper()
	u := h.srv.URL + path
	if rawQuery != "" {
		u += "?" + rawQuery
	}
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	ts := strconv.FormatInt(h.clock.Now().UnixMilli(), 10)
	req.Header.Set("x-api-key", key)
	req.Header.Set("x-api-timestamp", ts)
	req.Header.Set("x-api-signature", Sign(secrets[key], ts, http.MethodGet, path, rawQuery))
	return req
}

func (h *harness) get(path, rawQuery, key string) reply {
	h.t.Helper()
	return h.do(h.signedRequest(path, rawQuery, key))
}

func (h *harness) public() reply {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.srv.URL+PathTokenNetwork, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.do(req)
}

func wantError(t *testing.T, r reply, status int, code string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
	if got := r.code(t); got != code {
		t.Fatalf("code = %s, want %s; body %s", got, code, r.body)
	}
}

func wantOK(t *testing.T, r reply) map[string]any {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status = %d, want 200; body %s", r.status, r.body)
	}
	m := r.json(t)
	if m["success"] != true {
		t.Fatalf("success != true: %s", r.body)
	}
	return m
}

func rowsOf(t *testing.T, m map[string]any) []map[string]any {
	t.Helper()
	data, ok := m["data"].(map[string]any)
	if !ok {
		t.Fatalf("no data object in %v", m)
	}
	raw, ok := data["rows"].([]any)
	if !ok {
		t.Fatalf("no rows array in %v", data)
	}
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i] = r.(map[string]any)
	}
	return out
}

func metaOf(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	meta, ok := m["data"].(map[string]any)["meta"].(map[string]any)
	if !ok {
		t.Fatalf("no meta in %v", m)
	}
	return meta
}
