package fakeexchange

import (
	"net/http"
	"testing"
	"time"
)

func (h *harness) systemInfo(rawQuery string) reply {
	h.t.Helper()
	u := h.srv.URL + PathSystemInfo
	if rawQuery != "" {
		u += "?" + rawQuery
	}
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.do(req)
}

func TestSystemInfoReportsTheStatusSet(t *testing.T) {
	s := testScenario()
	h := newHarness(t, s, WithPublicRateLimit(0, 0))
	// As captured: a stale estimate while the status is normal.
	const normal = `{"success":true,"data":{"status":0,"msg":"System is functioning properly.","estimatedEndTime":1749963600362},"timestamp":1721295317627}`
	if r := h.systemInfo(""); r.status != 200 || string(r.body) != normal {
		t.Errorf("default: %d %s, want %s", r.status, r.body, normal)
	}
	if err := h.ex.Apply(Event{SystemStatus: &Change[SystemStatus]{Row: SystemStatus{Status: 2, Msg: "System under maintenance.", EstimatedEndTime: 1749963600362}}}); err != nil {
		t.Fatal(err)
	}
	const maint = `{"success":true,"data":{"status":2,"msg":"System under maintenance.","estimatedEndTime":1749963600362},"timestamp":1721295317627}`
	if r := h.systemInfo(""); string(r.body) != maint {
		t.Errorf("maintenance: %s, want %s", r.body, maint)
	}
	// Maintenance is only reported: the other endpoints keep answering.
	wantOK(t, h.get(PathTokenHistory, "", "a1"))
	wantError(t, h.systemInfo("page=1"), 400, "-1004")

	s = testScenario()
	s.SystemStatus = &SystemStatus{Status: 1, Msg: "Trading maintenance."}
	s.NumbersAsStrings = true
	h = newHarness(t, s)
	const str = `{"success":true,"data":{"status":"1","msg":"Trading maintenance."},"timestamp":"1721295317627"}`
	if r := h.systemInfo(""); string(r.body) != str {
		t.Errorf("numbers as strings: %s, want %s", r.body, str)
	}
}

// System info shares the public per-IP budget with token network, needs no
// key, and takes faults by its own endpoint name.
func TestSystemInfoRateLimitAndFaults(t *testing.T) {
	h := newHarness(t, testScenario())
	h.ex.InjectFault(Fault{Kind: FaultMaintenance, Endpoint: EndpointSystemInfo, Count: 1})
	wantOK(t, h.public())
	wantError(t, h.systemInfo(""), 400, "-1011")
	// A signed request is no different: the key is not looked at.
	wantOK(t, h.do(h.signedRequest(PathSystemInfo, "", "a-trade")))
	for range DefaultPublicRateLimitRequests - 3 {
		wantOK(t, h.systemInfo(""))
	}
	wantError(t, h.systemInfo(""), 429, "-1003")
	wantError(t, h.public(), 429, "-1003")
	h.clock.Add(time.Second)
	wantOK(t, h.systemInfo(""))
	var got []string
	for _, r := range h.ex.Requests()[:2] {
		got = append(got, r.Endpoint+"/"+string(r.Fault))
	}
	if got[0] != "token_network/" || got[1] != "system_info/maintenance" {
		t.Errorf("request log = %v", got)
	}
}

func TestSystemStatusEventReplacesTheStatus(t *testing.T) {
	s, err := ParseScenario([]byte("system_status: {status: 0, msg: ok}\nevents: [{after: 0s, system_status: {status: 2, msg: down, estimated_end_time: 1749963600362}}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s)
	if r := h.systemInfo(""); string(r.body) != `{"success":true,"data":{"status":0,"msg":"ok"},"timestamp":1721295317627}` {
		t.Errorf("before Start: %s", r.body)
	}
	h.ex.runEvent(t.Context(), s.Events[0])
	if r := h.systemInfo(""); string(r.body) != `{"success":true,"data":{"status":2,"msg":"down","estimatedEndTime":1749963600362},"timestamp":1721295317627}` {
		t.Errorf("after the event: %s", r.body)
	}
}
