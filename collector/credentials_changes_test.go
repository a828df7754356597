package collector

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// changedKey is the key whose access the change tests edit; its label.
const (
	changedKey      = "CHANGEDKEYdddddddddd0003"
	changedKeyLabel = "CHAN...0003"
)

// keyRig polls the credentials of "main", listing ownKey and changedKey,
// with a state file when one is given, as the exporter does.
type keyRig struct {
	*rig
	t     *testing.T
	state string
	e     *Exporter
}

func newKeyRig(t *testing.T, state string) *keyRig {
	x := &keyRig{rig: newRig(t, &fakeexchange.Scenario{}), t: t, state: state}
	x.start()
	return x
}

// start builds the exporter, from the state file when there is one, as a
// start of the binary does.
func (x *keyRig) start() {
	x.t.Helper()
	x.startWith(nil)
}

// startWith is start with the handoff of a replaced exporter.
func (x *keyRig) startWith(handoff *Handoff) {
	x.t.Helper()
	cfg := x.config()
	cfg.Public, cfg.Collectors, cfg.Handoff = nil, map[string]bool{}, handoff
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == endpoint.Credentials
	}
	if x.state != "" {
		store, err := openState(x.state, x.clock.Now())
		if err != nil {
			x.t.Fatal(err)
		}
		cfg.State = store
	}
	x.e = newExporter(x.t, cfg)
}

// list makes the credentials list ownKey and changedKey with permissions
// and allowed IPs (nil: no allowedIPs field, []string{}: []).
func (x *keyRig) list(permissions, ips []string) {
	x.t.Helper()
	x.listCredentials(x.t, []fakeexchange.Key{{APIKey: ownKey, Permissions: []string{"READ"}},
		{APIKey: changedKey, Permissions: permissions, AllowedIPs: ips}})
}

// poll polls the credentials once and returns the changed key's exported
// changes as "allowed IPs/permissions", "absent" when it has none.
func (x *keyRig) poll() string {
	x.t.Helper()
	p := x.e.pollers[0]
	p.pollOnce(context.Background())
	if !p.lastStatus().success {
		x.t.Fatalf("credentials poll failed:\n%s", x.logs.String())
	}
	return x.changes()
}

// changes is the changed key's exported changes as "allowed IPs/permissions".
func (x *keyRig) changes() string {
	x.t.Helper()
	got := map[string]float64{}
	for _, name := range []string{"woox_api_key_allowed_ips_changes_total", "woox_api_key_permission_changes_total"} {
		got[name] = -1
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(x.e.byName[endpoint.Credentials])
	mfs, err := reg.Gather()
	if err != nil {
		x.t.Fatal(err)
	}
	for _, mf := range mfs {
		if _, ok := got[mf.GetName()]; !ok {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "api_key" && l.GetValue() == changedKeyLabel {
					got[mf.GetName()] = m.GetCounter().GetValue()
				}
			}
		}
	}
	ips, perms := got["woox_api_key_allowed_ips_changes_total"], got["woox_api_key_permission_changes_total"]
	if ips < 0 || perms < 0 {
		return "absent"
	}
	return fmt.Sprintf("%v/%v", ips, perms)
}

// A change of a key's set of allowed IPs or of permissions counts 1 in the
// poll that sees it, whatever else stays the same; the same sets written
// otherwise count nothing.
func TestKeyChangesCountChangedSetsOnly(t *testing.T) {
	rw, rt := []string{"READ", "TRADE"}, []string{"READ", "WITHDRAWAL"}
	for _, tc := range []struct {
		name             string
		perms, ips       []string
		newPerms, newIPs []string
		want             string
	}{
		{name: "an allowed IP swapped for another", perms: rw, ips: []string{"10.0.0.1"}, newPerms: rw, newIPs: []string{"6.6.6.6"}, want: "1/0"},
		{name: "the same list in another order, with a repeat", perms: rw, ips: []string{"10.0.0.1", "10.0.0.2"},
			newPerms: rw, newIPs: []string{"10.0.0.2", "10.0.0.1", "10.0.0.2"}, want: "0/0"},
		{name: "an IPv6 address spelt otherwise", perms: rw, ips: []string{"::1"}, newPerms: rw, newIPs: []string{"0:0::0001"}, want: "0/0"},
		{name: "no list, then an empty one", perms: rw, ips: nil, newPerms: rw, newIPs: []string{}, want: "0/0"},
		{name: "an empty list, then none", perms: rw, ips: []string{}, newPerms: rw, newIPs: nil, want: "0/0"},
		{name: "the restriction lifted", perms: rw, ips: []string{"10.0.0.1"}, newPerms: rw, newIPs: nil, want: "1/0"},
		{name: "a permission added and another removed", perms: rw, ips: []string{"10.0.0.1"}, newPerms: rt, newIPs: []string{"10.0.0.1"}, want: "0/1"},
		{name: "the same permissions in another order, case and with a repeat", perms: rw, ips: nil,
			newPerms: []string{"trade", "READ", "READ"}, newIPs: nil, want: "0/0"},
		{name: "both at once", perms: rw, ips: []string{"10.0.0.1"}, newPerms: rt, newIPs: []string{"10.0.0.9"}, want: "1/1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := newKeyRig(t, "")
			x.list(tc.perms, tc.ips)
			if got := x.poll(); got != "0/0" {
				t.Fatalf("first poll: %s, want 0/0", got)
			}
			x.list(tc.newPerms, tc.newIPs)
			if got := x.poll(); got != tc.want {
				t.Errorf("after the change: %s, want %s", got, tc.want)
			}
			if got := x.poll(); got != tc.want {
				t.Errorf("a poll later, nothing changed: %s, want %s still", got, tc.want)
			}
		})
	}
}

// A swap is the change no gauge shows: one address before and after.
func TestKeyChangesAnAllowedIPSwapIsCountedThoughNoGaugeMoves(t *testing.T) {
	x := newKeyRig(t, "")
	x.list([]string{"READ", "TRADE"}, []string{"10.0.0.1"})
	x.poll()
	before := x.gauges()
	x.list([]string{"READ", "TRADE"}, []string{"6.6.6.6"})
	if got := x.poll(); got != "1/0" {
		t.Errorf("changes %s, want 1/0", got)
	}
	if after := x.gauges(); after != before {
		t.Errorf("gauges moved (%s to %s): this test no longer shows what the counter adds", before, after)
	}
	logs := x.logs.String()
	if !strings.Contains(logs, `msg="an API key's allowed IPs or permissions changed"`) || !strings.Contains(logs, "api_key="+changedKeyLabel) {
		t.Errorf("the change is not logged with the key's label:\n%s", logs)
	}
	for _, secret := range []string{"10.0.0.1", "6.6.6.6", changedKey} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds %s:\n%s", secret, logs)
		}
	}
}

// gauges is the changed key's allowed_ips and ip_restricted gauges.
func (x *keyRig) gauges() string {
	c := x.e.byName[endpoint.Credentials].(*CredentialsCollector)
	for _, k := range c.accounts[0].snap.Load().keys {
		if k.label == changedKeyLabel {
			return fmt.Sprintf("allowed_ips %d, permissions %v", k.allowedIPs, k.permissions)
		}
	}
	return "absent"
}

// A key seen for the first time counts nothing, whatever it holds, and so
// does every key at a start without a state file.
func TestKeyChangesAKeySeenFirstCountsNothing(t *testing.T) {
	x := newKeyRig(t, "")
	x.listCredentials(t, []fakeexchange.Key{{APIKey: ownKey, Permissions: []string{"READ"}}})
	if got := x.poll(); got != "absent" {
		t.Fatalf("before it is listed: %s", got)
	}
	x.list([]string{"READ", "TRADE", "WITHDRAWAL"}, []string{"6.6.6.6"})
	if got := x.poll(); got != "0/0" {
		t.Errorf("first seen: %s, want 0/0", got)
	}
	x.list([]string{"READ"}, nil)
	if got := x.poll(); got != "1/1" {
		t.Errorf("then changed: %s, want 1/1", got)
	}
	x.start()
	if got := x.poll(); got != "0/0" {
		t.Errorf("after a start without a state file: %s, want 0/0", got)
	}
}

// With a state file the counters continue across restarts, a change made
// while the exporter was down counts once at the first poll after it, and
// no restart counts anything again. The file holds digests only.
func TestKeyChangesContinueAcrossRestartsWithTheStateFile(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	x := newKeyRig(t, state)
	x.list([]string{"READ", "TRADE"}, []string{"10.0.0.1"})
	x.poll()
	x.list([]string{"READ", "TRADE"}, []string{"6.6.6.6"})
	if got := x.poll(); got != "1/0" {
		t.Fatalf("first run: %s, want 1/0", got)
	}
	x.start()
	if got := x.poll(); got != "1/0" {
		t.Errorf("restarted, nothing changed: %s, want 1/0 restored", got)
	}
	// While down: the list swapped back, a permission traded.
	x.list([]string{"READ", "WITHDRAWAL"}, []string{"10.0.0.1"})
	x.start()
	if got := x.poll(); got != "2/1" {
		t.Errorf("first poll after a change made while down: %s, want 2/1", got)
	}
	x.start()
	if got := x.poll(); got != "2/1" {
		t.Errorf("restarted again: %s, want 2/1", got)
	}
	b, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"10.0.0.1", "6.6.6.6", changedKey, ownKey, "WITHDRAWAL"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the state file holds %s:\n%s", secret, b)
		}
	}
}

// A reload hands what was seen of the keys over in memory, without a state
// file: the counts continue, and a change made during the reload counts.
func TestKeyChangesContinueAcrossAHandoff(t *testing.T) {
	x := newKeyRig(t, "")
	x.list([]string{"READ", "TRADE"}, []string{"10.0.0.1"})
	x.poll()
	x.list([]string{"READ", "TRADE"}, []string{"6.6.6.6"})
	if got := x.poll(); got != "1/0" {
		t.Fatalf("before the reload: %s, want 1/0", got)
	}
	x.list([]string{"READ", "WITHDRAWAL"}, []string{"6.6.6.6"})
	x.startWith(x.e.Handoff())
	if got := x.poll(); got != "1/1" {
		t.Errorf("first poll after the reload: %s, want 1/1 (the counts handed off, the permission traded meanwhile counted)", got)
	}
}

// A counter is exported only once saved: while the state file cannot be
// written the change stays unpublished, and it is published, counted once,
// by the first poll whose save succeeds.
func TestKeyChangesArePublishedOnlyOnceSaved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	x := newKeyRig(t, filepath.Join(dir, "state.json"))
	x.list([]string{"READ", "TRADE"}, []string{"10.0.0.1"})
	x.poll()
	if err := os.Rename(dir, dir+".gone"); err != nil {
		t.Fatal(err)
	}
	x.list([]string{"READ", "TRADE"}, []string{"6.6.6.6"})
	for range 2 {
		if got := x.poll(); got != "0/0" {
			t.Errorf("published before saved: %s, want 0/0", got)
		}
	}
	if !strings.Contains(x.logs.String(), "cannot save the state of the API keys") {
		t.Errorf("the failed save is not logged:\n%s", x.logs.String())
	}
	if err := os.Rename(dir+".gone", dir); err != nil {
		t.Fatal(err)
	}
	if got := x.poll(); got != "1/0" {
		t.Errorf("once saved: %s, want 1/0", got)
	}
	x.start()
	if got := x.poll(); got != "1/0" {
		t.Errorf("restarted: %s, want 1/0", got)
	}
}
