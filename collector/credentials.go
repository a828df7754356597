package collector

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

// basePermissions are always exported, 0 when not granted, so that an alert
// on e.g. WITHDRAWAL can compare a value instead of testing for absence.
var basePermissions = []string{"READ", "TRADE", "WITHDRAWAL"}

var (
	apiKeyLabels = []string{"account", "api_key"}

	apiKeyInfoDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "api_key", "info"),
		"An API key of the account, with the exchange's account name and user id; always 1."+refreshed,
		[]string{"account", "api_key", "account_name", "user_id"}, nil)
	apiKeyPermissionDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "api_key", "permission"),
		"Whether the API key has the permission (1) or not (0); READ, TRADE and WITHDRAWAL are always present."+refreshed,
		[]string{"account", "api_key", "permission"}, nil)
	apiKeyIPRestrictedDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "api_key", "ip_restricted"),
		"Whether the API key is restricted to a list of client IP addresses (1) or usable from anywhere (0)."+refreshed,
		apiKeyLabels, nil)
	apiKeyAllowedIPsDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "api_key", "allowed_ips"),
		"Number of client IP addresses the API key is restricted to; 0 when unrestricted."+refreshed,
		apiKeyLabels, nil)
	apiKeyAllowedIPsChangesDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "api_key", "allowed_ips_changes_total"),
		"Polls that found the API key's set of allowed client IP addresses changed since the poll before (order and repeats aside; "+
			"no list and an empty one alike). With --token-history.state-file it continues across restarts and counts a change made "+
			"while the exporter was down."+refreshed,
		apiKeyLabels, nil)
	apiKeyPermissionChangesDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "api_key", "permission_changes_total"),
		"Polls that found the API key's set of permissions changed since the poll before (order and repeats aside). With "+
			"--token-history.state-file it continues across restarts and counts a change made while the exporter was down."+refreshed,
		apiKeyLabels, nil)
	exporterKeyPermissionDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "exporter", "api_key_permission"),
		"Whether the API key this exporter uses has the permission (1) or not (0); a read-only exporter needs only READ."+refreshed,
		[]string{"account", "permission"}, nil)
)

// CredentialsAPI reads the API keys of one account.
type CredentialsAPI interface {
	Credentials(ctx context.Context) ([]client.Credential, []client.RejectedRow, error)
}

// CredentialsCollector exports the API keys of each account and their
// permissions as last polled.
type CredentialsCollector struct {
	accounts []*credentialsAccount
}

var _ prometheus.Collector = (*CredentialsCollector)(nil)

type credentialsAccount struct {
	name     string
	ownKey   string
	api      CredentialsAPI
	showFull bool
	logger   log.Logger
	cap      *seriesCap
	keys     keyWatch

	snap atomic.Pointer[credentialsSnapshot]
	// published counts the snapshots stored: the account's generation.
	published atomic.Uint64
	// ownMissing is set while the exporter's own key is absent from the
	// list, so that this is logged once, not on every poll. Poller only.
	ownMissing bool
}

type credentialsSnapshot struct {
	keys []apiKeyRow
	// own holds the permissions of the exporter's key; nil when the key is
	// not in the list.
	own map[string]bool
}

// apiKeyRow is a credential as exported: no IP address, key masked; id is
// its keyID.
type apiKeyRow struct {
	id          string
	label       string
	accountName string
	userID      string
	permissions map[string]bool
	allowedIPs  int
	// allowedIPsChanges and permissionChanges are the key's counts as saved
	// (keyWatch).
	allowedIPsChanges, permissionChanges uint64
}

func (a *credentialsAccount) poll(ctx context.Context, _ func()) (leftOut, error) {
	creds, rejected, err := a.api.Credentials(ctx)
	if err != nil {
		return leftOut{}, err
	}
	rows := apiKeyRows(creds, a.showFull)
	a.countChanges(creds, len(rejected) == 0, rows)
	snap := &credentialsSnapshot{keys: capRows(a.cap, rows)}
	for _, c := range creds {
		if c.APIKey == a.ownKey {
			snap.own = permissionSet(c.Permissions)
			break
		}
	}
	switch {
	case snap.own == nil && !a.ownMissing:
		level.Warn(a.logger).Log("msg", "the exporter's own API key is not in the account's credentials list; its permissions are not exported",
			"account", a.name, "api_key", client.MaskAPIKey(a.ownKey, false))
		a.ownMissing = true
	case snap.own != nil:
		a.ownMissing = false
	}
	// An unchanged list is not published: its part is not encoded again.
	if old := a.snap.Load(); old == nil || !same(old, snap) {
		a.snap.Store(snap)
		a.published.Add(1)
	}
	return leftOut{rows: rejected}, nil
}

// apiKeyRows turns credentials into exported rows. A key listed twice keeps
// its first row. Keys that mask alike are all shown (one of them may be the
// key with WITHDRAWAL) and never break the scrape: each gets "~" and the
// first hex digits of the SHA-256 of its full key appended, which depend on
// that key alone, so adding or removing another key never moves a key's
// series to another key's label.
func apiKeyRows(creds []client.Credential, showFull bool) []apiKeyRow {
	byKey := map[string]client.Credential{}
	var keys []string
	byMask := map[string][]string{}
	for _, c := range creds {
		if _, dup := byKey[c.APIKey]; dup {
			continue
		}
		byKey[c.APIKey] = c
		keys = append(keys, c.APIKey)
		m := client.MaskAPIKey(c.APIKey, showFull)
		byMask[m] = append(byMask[m], c.APIKey)
	}
	slices.Sort(keys)
	rows := make([]apiKeyRow, 0, len(keys))
	for _, k := range keys {
		c := byKey[k]
		label := client.MaskAPIKey(k, showFull)
		if alike := byMask[label]; len(alike) > 1 {
			label += "~" + keySuffix(k, alike)
		}
		rows = append(rows, apiKeyRow{
			id:          keyID(k),
			label:       label,
			accountName: c.AccountName,
			userID:      c.UserID,
			permissions: permissionSet(c.Permissions),
			allowedIPs:  countDistinct(c.AllowedIPs),
		})
	}
	return rows
}

// keySuffix is the first 4 hex digits of the SHA-256 of key, or as many more
// as it takes to tell it from the other keys of alike (1 in 65,536 pairs).
func keySuffix(key string, alike []string) string {
	sum := sha256.Sum256([]byte(key))
	h := hex.EncodeToString(sum[:])
	n := 4
	for _, other := range alike {
		if other == key {
			continue
		}
		o := sha256.Sum256([]byte(other))
		oh := hex.EncodeToString(o[:])
		for n < len(h) && h[:n] == oh[:n] {
			n++
		}
	}
	return h[:n]
}

// permissionSet holds the base permissions, granted or not, and every other
// permission the exchange listed, granted. Names are compared in upper case.
func permissionSet(granted []string) map[string]bool {
	set := make(map[string]bool, len(basePermissions)+len(granted))
	for _, p := range basePermissions {
		set[p] = false
	}
	for _, p := range granted {
		if p = strings.ToUpper(strings.TrimSpace(p)); p != "" {
			set[p] = true
		}
	}
	return set
}

func countDistinct(ss []string) int {
	seen := map[string]bool{}
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			seen[s] = true
		}
	}
	return len(seen)
}

// Describe implements prometheus.Collector.
func (c *CredentialsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- apiKeyInfoDesc
	ch <- apiKeyPermissionDesc
	ch <- apiKeyIPRestrictedDesc
	ch <- apiKeyAllowedIPsDesc
	ch <- apiKeyAllowedIPsChangesDesc
	ch <- apiKeyPermissionChangesDesc
	ch <- exporterKeyPermissionDesc
}

// Collect implements prometheus.Collector.
func (c *CredentialsCollector) Collect(ch chan<- prometheus.Metric) {
	for i := range c.accounts {
		c.collectAt(i, ch)
	}
}

// accountNames implements accountSplit.
func (c *CredentialsCollector) accountNames() []string {
	return namesOf(c.accounts, func(i int) string { return c.accounts[i].name })
}

// generationAt implements accountSplit.
func (c *CredentialsCollector) generationAt(i int) uint64 { return c.accounts[i].published.Load() }

// collectAt implements accountSplit.
func (c *CredentialsCollector) collectAt(i int, ch chan<- prometheus.Metric) {
	a := c.accounts[i]
	snap := a.snap.Load()
	if snap == nil {
		return
	}
	for _, k := range snap.keys {
		ch <- prometheus.MustNewConstMetric(apiKeyInfoDesc, prometheus.GaugeValue, 1, a.name, k.label, k.accountName, k.userID)
		for p, ok := range k.permissions {
			ch <- prometheus.MustNewConstMetric(apiKeyPermissionDesc, prometheus.GaugeValue, boolFloat(ok), a.name, k.label, p)
		}
		ch <- prometheus.MustNewConstMetric(apiKeyIPRestrictedDesc, prometheus.GaugeValue, boolFloat(k.allowedIPs > 0), a.name, k.label)
		ch <- prometheus.MustNewConstMetric(apiKeyAllowedIPsDesc, prometheus.GaugeValue, float64(k.allowedIPs), a.name, k.label)
		ch <- prometheus.MustNewConstMetric(apiKeyAllowedIPsChangesDesc, prometheus.CounterValue, float64(k.allowedIPsChanges), a.name, k.label)
		ch <- prometheus.MustNewConstMetric(apiKeyPermissionChangesDesc, prometheus.CounterValue, float64(k.permissionChanges), a.name, k.label)
	}
	for p, ok := range snap.own {
		ch <- prometheus.MustNewConstMetric(exporterKeyPermissionDesc, prometheus.GaugeValue, boolFloat(ok), a.name, p)
	}
}

func init() { register(endpoint.Credentials, buildCredentials) }

// buildCredentials polls each account's API keys, what was seen of them
// resumed from a reload's handoff or the state file.
func buildCredentials(b *builder) (prometheus.Collector, error) {
	if len(b.cfg.Accounts) == 0 {
		return nil, nil
	}
	c := &CredentialsCollector{}
	for _, a := range b.cfg.Accounts {
		keys, _ := apiKeyChanges.restore(b, a.Name)
		ca := &credentialsAccount{name: a.Name, ownKey: a.APIKey, api: a.API, showFull: b.cfg.ShowFullKey, logger: b.cfg.Logger,
			cap: b.seriesCap(a.Name), keys: keyWatch{seen: keys.saved, state: keys}}
		c.accounts = append(c.accounts, ca)
		b.pollList(c, a.Name, ca.poll)
	}
	return c, nil
}
