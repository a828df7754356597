package fakeexchange

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestVerifySignatureAcceptsPublishedVectors(t *testing.T) {
	const secret, ts = "QHKRXHPAW1MC9YGZMAT8YDJG2HPR", "1578565539808"
	for _, tc := range []struct{ path, query, sig string }{
		{"/v3/algo/orders", "algoType=STOP", "fddab579aff8c193f920c2d4f0cda6a21a60f06fd9c3916541ecc4f6461f5977"},
		{"/v3/account/credentials", "", "86487ca5f3c9b994436e8af0915dfb3002770bc5041c28b3548111a91460991d"},
	} {
		if !VerifySignature(secret, ts, "GET", tc.path, tc.query, tc.sig) {
			t.Errorf("vector %s?%s rejected; Sign gives %s", tc.path, tc.query, Sign(secret, ts, "GET", tc.path, tc.query))
		}
	}
}

func TestVerifySignatureRejectsAlteredInputs(t *testing.T) {
	const secret, ts = "QHKRXHPAW1MC9YGZMAT8YDJG2HPR", "1578565539808"
	const good = "fddab579aff8c193f920c2d4f0cda6a21a60f06fd9c3916541ecc4f6461f5977"
	for name, v := range map[string][5]string{
		"other secret":    {"x" + secret, ts, "GET", "/v3/algo/orders", "algoType=STOP"},
		"other timestamp": {secret, "1578565539809", "GET", "/v3/algo/orders", "algoType=STOP"},
		"other method":    {secret, ts, "DELETE", "/v3/algo/orders", "algoType=STOP"},
		"other query":     {secret, ts, "GET", "/v3/algo/orders", "algoType=STOP&x=1"},
		"no query":        {secret, ts, "GET", "/v3/algo/orders", ""},
	} {
		if VerifySignature(v[0], v[1], v[2], v[3], v[4], good) {
			t.Errorf("%s: accepted", name)
		}
	}
	upper := "FDDAB579AFF8C193F920C2D4F0CDA6A21A60F06FD9C3916541ECC4F6461F5977"
	if VerifySignature(secret, ts, "GET", "/v3/algo/orders", "algoType=STOP", upper) {
		t.Error("uppercase hex accepted; the fake only accepts lowercase")
	}
}

func TestAuthenticationErrors(t *testing.T) {
	h := newHarness(t, testScenario())
	ts := func(d time.Duration) string { return strconv.FormatInt(h.clock.Now().Add(d).UnixMilli(), 10) }
	for _, tc := range []struct {
		name   string
		mutate func(r *http.Request)
		key    string
		status int
		code   string
	}{
		{"valid", func(*http.Request) {}, "a1", 200, ""},
		{"missing key", func(r *http.Request) { r.Header.Del("x-api-key") }, "a1", 401, "-1002"},
		{"unknown key", func(r *http.Request) { r.Header.Set("x-api-key", "nope") }, "a1", 401, "-1002"},
		{"missing signature", func(r *http.Request) { r.Header.Del("x-api-signature") }, "a1", 401, "-1001"},
		{"bad signature", func(r *http.Request) { r.Header.Set("x-api-signature", "00"+r.Header.Get("x-api-signature")[2:]) }, "a1", 401, "-1001"},
		{"missing timestamp", func(r *http.Request) { r.Header.Del("x-api-timestamp") }, "a1", 401, "-1001"},
		{"timestamp in seconds", func(r *http.Request) {
			r.Header.Set("x-api-timestamp", strconv.FormatInt(h.clock.Now().Unix(), 10))
		}, "a1", 401, "-1001"},
		{"no READ permission", func(*http.Request) {}, "a-trade", 401, "-1002"},
		{"ip not allowed", func(*http.Request) {}, "a-ip", 401, "-1002"},
		{"ip allowed by list with loopback", func(*http.Request) {}, "a2", 200, ""},
		{"signed query differs from sent query", func(r *http.Request) { r.URL.RawQuery = "size=25&page=1" }, "a1", 401, "-1001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := h.signedRequest(PathCredentials, "page=1&size=25", tc.key)
			tc.mutate(req)
			r := h.do(req)
			// Accepted or not, the request log holds the headers as sent.
			reqs := h.ex.Requests()
			if last := reqs[len(reqs)-1]; last.Signature != req.Header.Get("x-api-signature") || last.APITimestamp != req.Header.Get("x-api-timestamp") {
				t.Errorf("request log has signature %q timestamp %q, sent %q %q", last.Signature, last.APITimestamp,
					req.Header.Get("x-api-signature"), req.Header.Get("x-api-timestamp"))
			}
			if tc.status == 200 {
				wantOK(t, r)
				return
			}
			wantError(t, r, tc.status, tc.code)
		})
	}

	// The signing window: a difference under 300 s passes, 300 s or more fails,
	// both ahead of and behind server time.
	for _, tc := range []struct {
		skew time.Duration
		ok   bool
	}{
		{299*time.Second + 999*time.Millisecond, true},
		{-299*time.Second - 999*time.Millisecond, true},
		{300 * time.Second, false},
		{-300 * time.Second, false},
	} {
		req := h.signedRequest(PathCredentials, "", "b1")
		stamp := ts(tc.skew)
		req.Header.Set("x-api-timestamp", stamp)
		req.Header.Set("x-api-signature", Sign("s-b1", stamp, "GET", PathCredentials, ""))
		r := h.do(req)
		if tc.ok {
			wantOK(t, r)
		} else {
			wantError(t, r, 401, "-1001")
		}
	}
}

func TestServerTimeOffsetShiftsTimestampWindow(t *testing.T) {
	s := testScenario()
	s.ServerTimeOffset = 10 * time.Minute
	h := newHarness(t, s)
	wantError(t, h.get(PathCredentials, "", "a1"), 401, "-1001")
	// A client whose clock agrees with the server's is accepted.
	req := h.signedRequest(PathCredentials, "", "a1")
	stamp := strconv.FormatInt(h.clock.Now().Add(10*time.Minute).UnixMilli(), 10)
	req.Header.Set("x-api-timestamp", stamp)
	req.Header.Set("x-api-signature", Sign("s-a1", stamp, "GET", PathCredentials, ""))
	m := wantOK(t, h.do(req))
	if got := m["timestamp"].(interface{ String() string }).String(); got != stamp {
		t.Errorf("envelope timestamp = %s, want server time %s", got, stamp)
	}
}

func TestRemovedAndUpdatedKeys(t *testing.T) {
	h := newHarness(t, testScenario())
	wantOK(t, h.get(PathCredentials, "", "b1"))
	if err := h.ex.Apply(Event{Key: &Change[Key]{Account: "b", Row: Key{APIKey: "b1", Permissions: []string{"TRADE"}}}}); err != nil {
		t.Fatal(err)
	}
	wantError(t, h.get(PathCredentials, "", "b1"), 401, "-1002")
	if err := h.ex.Apply(Event{Key: &Change[Key]{Account: "b", Row: Key{APIKey: "b1"}, Remove: true}}); err != nil {
		t.Fatal(err)
	}
	wantError(t, h.get(PathCredentials, "", "b1"), 401, "-1002")
	if err := h.ex.Apply(Event{Key: &Change[Key]{Account: "b", Row: Key{APIKey: "b1"}, Remove: true}}); err == nil {
		t.Error("removing a key removed already: no error")
	}
	if err := h.ex.Apply(Event{Key: &Change[Key]{Account: "b", Row: Key{APIKey: "b1", APISecret: "s-b1", Permissions: []string{"READ"}}}}); err != nil {
		t.Fatal(err)
	}
	wantOK(t, h.get(PathCredentials, "", "b1"))
	if err := h.ex.Apply(Event{Key: &Change[Key]{Account: "b", Row: Key{APIKey: "a1", APISecret: "x"}}}); err == nil {
		t.Error("adding another account's key: no error")
	}
}

// Under signature_query "sorted" only a signature over the parameters sorted
// by name passes: a client that signs the unsorted bytes it sends fails,
// one that sends sorted parameters passes in both modes.
func TestSignatureQuerySortedRequiresSortedParameters(t *testing.T) {
	const unsorted, sorted = "size=25&page=1&endTime=1721295317627", "endTime=1721295317627&page=1&size=25"
	for _, tc := range []struct {
		mode         string
		sent, signed string
		ok           bool
	}{
		{"", unsorted, unsorted, true},
		{"exact", unsorted, unsorted, true},
		{"exact", sorted, sorted, true},
		{"exact", unsorted, sorted, false},
		{"sorted", unsorted, unsorted, false},
		{"sorted", sorted, sorted, true},
		// The server sorts what it received before checking.
		{"sorted", unsorted, sorted, true},
		{"sorted", "", "", true},
	} {
		s := testScenario()
		s.SignatureQuery = tc.mode
		h := newHarness(t, s)
		req := h.signedRequest(PathTokenHistory, tc.sent, "a1")
		ts := req.Header.Get("x-api-timestamp")
		req.Header.Set("x-api-signature", Sign("s-a1", ts, http.MethodGet, PathTokenHistory, tc.signed))
		r := h.do(req)
		if tc.ok {
			wantOK(t, r)
		} else {
			wantError(t, r, 401, "-1001")
		}
	}
}

func TestSortQueryKeepsValuesAndRepeatedNamesAsSent(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "",
		"b=2&a=1":               "a=1&b=2",
		"type=DEPOSIT&size=%32": "size=%32&type=DEPOSIT",
		"b=2&a=x&a=y&a=":        "a=x&a=y&a=&b=2",
		"page=1&pageSize=2":     "page=1&pageSize=2",
	} {
		if got := sortQuery(in); got != want {
			t.Errorf("sortQuery(%q) = %q, want %q", in, got, want)
		}
	}
}
