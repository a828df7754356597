package fakeexchange

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The fake's default answers take the shapes of the answers captured from
// the real exchange (client/testdata/captures): the same fields, each with
// the same JSON type (number, string, bool, null, object, array), and with
// every number a string in the all-strings mode. Values differ; shapes may
// not.

// shape is the JSON type of every field of a decoded answer, by path
// (data.rows[].id); arrays of objects are described by their first element.
func shape(v any, path string, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		out[path] = "object"
		for k, e := range x {
			shape(e, path+"."+k, out)
		}
	case []any:
		out[path] = "array"
		if len(x) > 0 {
			shape(x[0], path+"[]", out)
		}
	case json.Number:
		out[path] = "number"
	case string:
		out[path] = "string"
	case bool:
		out[path] = "bool"
	case nil:
		out[path] = "null"
	}
}

func shapeOf(t *testing.T, r reply) map[string]string {
	t.Helper()
	out := map[string]string{}
	shape(r.json(t), "", out)
	return out
}

func captureShape(t *testing.T, file string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "client", "testdata", "captures", file))
	if err != nil {
		t.Fatal(err)
	}
	return shapeOf(t, reply{body: b})
}

func compareShapes(t *testing.T, got, want map[string]string) {
	t.Helper()
	var diffs []string
	for k, w := range want {
		if g, ok := got[k]; !ok {
			diffs = append(diffs, k+": missing, want "+w)
		} else if g != w {
			diffs = append(diffs, k+": "+g+", want "+w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, k+": "+g+", not in the capture")
		}
	}
	slices.Sort(diffs)
	if len(diffs) > 0 {
		t.Errorf("the fake's answer differs in shape from the capture:\n  %s", strings.Join(diffs, "\n  "))
	}
}

func TestDefaultAnswersHaveTheCapturedShapes(t *testing.T) {
	for _, mode := range []struct {
		suffix string
		apply  func(*Scenario)
	}{
		{".json", func(*Scenario) {}},
		{"_strings.json", func(s *Scenario) { s.NumbersAsStrings = true }},
	} {
		s := testScenario()
		s.Accounts[0].Transfers = []Transfer{{ID: "w1", Token: "TRON_USDT", Side: "DEPOSIT", Amount: "5", Status: "COMPLETED", CreatedAgo: time.Hour}}
		mode.apply(s)
		h := newHarness(t, s)
		systemInfo, err := http.NewRequest(http.MethodGet, h.srv.URL+PathSystemInfo, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			capture string
			answer  reply
		}{
			{"system_info", h.do(systemInfo)},
			{"account_info", h.get(PathAccountInfo, "", "a1")},
			{"wallet_history", h.get(PathWalletHistory, "type=BALANCE&tokenSide=DEPOSIT", "a1")},
		} {
			t.Run(c.capture+mode.suffix, func(t *testing.T) {
				compareShapes(t, shapeOf(t, c.answer), captureShape(t, c.capture+mode.suffix))
			})
		}
	}
}

// Where nothing was captured, the docs' examples set the shape.
func TestDefaultAnswersHaveTheDocsShapes(t *testing.T) {
	s := testScenario()
	s.Accounts[0].SubAccounts = []SubAccount{{ApplicationID: "app-1", Name: "desk-a", CreatedTime: 1579399877041}}
	h := newHarness(t, s)
	t.Run("sub-accounts", func(t *testing.T) {
		compareShapes(t, shapeOf(t, h.get(PathSubAccounts, "", "a1")), captureShape(t, "docs_sub_accounts.json"))
	})
	t.Run("credentials", func(t *testing.T) {
		got := shapeOf(t, h.get(PathCredentials, "", "a1"))
		// The first key of account a has no IP restriction, and the
		// field is then left out.
		want := captureShape(t, "docs_credentials.json")
		delete(want, ".data.rows[].allowedIPs")
		delete(want, ".data.rows[].allowedIPs[]")
		compareShapes(t, got, want)
	})
}
