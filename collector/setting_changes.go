package collector

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

var settingChangesDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "account", "setting_changes_total"),
	"Changes of the account's settings: leverage, account_mode and position_mode of the account (from its info), "+
		"position_leverage and margin_mode of an open position (from its positions). A first sight, an unchanged value "+
		"and a position opened or closed count nothing; a change made while the exporter was down counts at its next start.",
	[]string{"account", "setting"}, nil)

// settingsBy are the settings counted, by the endpoint whose answer holds them.
var settingsBy = map[string][]string{
	endpoint.AccountInfo: {"leverage", "account_mode", "position_mode"},
	endpoint.Positions:   {"position_leverage", "margin_mode"},
}

// accountSettingChanges are what was last seen of each account's settings
// and the changes counted of each.
var accountSettingChanges = newCountedHistory[AccountSettings](StateSection{Name: "account_settings", Zero: AccountSettings{},
	Check: checkOf(AccountSettings.check)}, "account settings")

// AccountSettings is what was last seen of one account's settings, so that
// a change made while the exporter was down counts at its next start, and
// the changes counted of each setting.
type AccountSettings struct {
	// Account is the account's settings by name (leverage, account_mode,
	// position_mode); Positions each open position's, by symbol and side.
	Account   map[string]string           `json:"account,omitempty"`
	Positions map[string]PositionSettings `json:"positions,omitempty"`
	Changes   map[string]uint64           `json:"changes,omitempty"`
}

// PositionSettings are what was last seen of one position's settings.
type PositionSettings struct {
	Leverage   string `json:"leverage,omitempty"`
	MarginMode string `json:"margin_mode,omitempty"`
}

func (s AccountSettings) check() error {
	known := slices.Concat(settingsBy[endpoint.AccountInfo], settingsBy[endpoint.Positions])
	for name := range s.Changes {
		if !slices.Contains(known, name) {
			return fmt.Errorf("changes of an unknown setting %q", name)
		}
	}
	for name := range s.Account {
		if !slices.Contains(settingsBy[endpoint.AccountInfo], name) {
			return fmt.Errorf("an unknown account setting %q", name)
		}
	}
	return nil
}

func (s AccountSettings) clone() AccountSettings {
	return AccountSettings{Account: maps.Clone(s.Account), Positions: maps.Clone(s.Positions), Changes: maps.Clone(s.Changes)}
}

// settingWatch counts the changes of each account's settings that the
// account info and positions polls see, and exports the counts the state
// file holds, as one part beside theirs.
type settingWatch struct {
	shown    *perAccount[map[string]uint64]
	accounts map[string]*settingAccount
	// endpoints are those feeding the watch: only their settings are exported.
	endpoints []string
}

// settingAccount is one account's settings; mu serialises the two polls
// that change them.
type settingAccount struct {
	name   string
	logger log.Logger
	mu     sync.Mutex
	// seen is what the polls last saw; state what the state file holds.
	seen  AccountSettings
	state *countedState[AccountSettings]
	shown *latest[map[string]uint64]
}

// settingWatchOf is the exporter's watch, made with its part by the first
// build of an endpoint that feeds it.
func (b *builder) settingWatchOf() *settingWatch {
	w := b.e.settings
	if w == nil {
		w = &settingWatch{accounts: map[string]*settingAccount{}}
		w.shown = &perAccount[map[string]uint64]{descs: []*prometheus.Desc{settingChangesDesc}, emit: w.emit}
		for _, acc := range b.cfg.Accounts {
			st, _ := accountSettingChanges.restore(b, acc.Name)
			a := &settingAccount{name: acc.Name, logger: b.cfg.Logger, seen: st.saved.clone(), state: st, shown: w.shown.add(acc.Name)}
			_ = a.shown.set(maps.Clone(st.saved.Changes), nil)
			w.accounts[acc.Name] = a
		}
		b.e.settings = w
		b.e.parts, b.e.collectors = append(b.e.parts, newDataPart(w.shown)), append(b.e.collectors, w.shown)
	}
	w.endpoints = append(w.endpoints, b.endpoint)
	return w
}

// emit exports each setting of the endpoints feeding the watch, from 0.
func (w *settingWatch) emit(ch chan<- prometheus.Metric, account string, changes *map[string]uint64) {
	for _, ep := range w.endpoints {
		for _, setting := range settingsBy[ep] {
			ch <- prometheus.MustNewConstMetric(settingChangesDesc, prometheus.CounterValue, float64((*changes)[setting]), account, setting)
		}
	}
}

// observe counts the changes update finds in what the account's polls saw,
// saves, and shows the counts the state file holds.
func (a *settingAccount) observe(update func(next *AccountSettings) []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	next := a.seen.clone()
	changed := update(&next)
	if len(changed) > 0 && next.Changes == nil {
		next.Changes = map[string]uint64{}
	}
	for _, setting := range changed {
		next.Changes[setting]++
	}
	// After a failed save the counts shown hold until a later poll saves
	// what it sees, each change counted once.
	a.seen = next
	if a.state.keep(next) {
		_ = a.shown.set(maps.Clone(next.Changes), nil)
	}
	if len(changed) > 0 {
		level.Warn(a.logger).Log("msg", "account settings changed", "account", a.name, "settings", strings.Join(changed, ","))
	}
}

// observeAccountInfo counts the changes of the account's own settings: a
// setting not sent keeps what was seen.
func (a *settingAccount) observeAccountInfo(info client.AccountInfo) {
	values := map[string]string{"leverage": decimalText(info.Leverage), "account_mode": info.AccountMode, "position_mode": info.PositionMode}
	a.observe(func(next *AccountSettings) []string {
		if next.Account == nil {
			next.Account = map[string]string{}
		}
		var changed []string
		for _, setting := range settingsBy[endpoint.AccountInfo] {
			v := values[setting]
			if old, seen := next.Account[setting]; v != "" && seen && old != v {
				changed = append(changed, setting)
			}
			if v != "" {
				next.Account[setting] = v
			}
		}
		return changed
	})
}

// observePositions counts the changes of each open position's settings. A
// position seen for the first time counts nothing; one closed or no longer
// listed is forgotten, only when the list is complete: a row the client
// could not read may be it.
func (a *settingAccount) observePositions(open []client.Position, complete bool) {
	a.observe(func(next *AccountSettings) []string {
		was := next.Positions
		next.Positions = make(map[string]PositionSettings, len(open))
		if !complete {
			maps.Copy(next.Positions, was)
		}
		var changed []string
		for _, p := range open {
			key := p.Symbol + " " + p.Side
			now := PositionSettings{Leverage: decimalText(p.Leverage), MarginMode: p.MarginMode}
			if old, seen := was[key]; seen {
				if old.Leverage != "" && now.Leverage != "" && old.Leverage != now.Leverage {
					changed = append(changed, "position_leverage")
				}
				if old.MarginMode != "" && now.MarginMode != "" && old.MarginMode != now.MarginMode {
					changed = append(changed, "margin_mode")
				}
				now.Leverage, now.MarginMode = cmp.Or(now.Leverage, old.Leverage), cmp.Or(now.MarginMode, old.MarginMode)
			}
			next.Positions[key] = now
		}
		return changed
	})
}

// decimalText is d in its shortest form ("10.0" and 10 are "10"), "" for nil.
func decimalText(d *decimal.Decimal) string {
	if d == nil {
		return ""
	}
	return d.String()
}
