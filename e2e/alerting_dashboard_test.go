package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/dashboard"
	"github.com/woox-exporter/woox_exporter/internal/promtest"
)

const dashboardFile = "../dashboards/woox_exporter.json"

// noDataExemption is a dashboard query, its fallback stripped and its job
// woox (it stands for every job checked), that may return nothing, with the
// reason.
type noDataExemption struct{ query, why string }

// noDataOK are the queries whose real part may return nothing on any job.
// Keep it empty if you can: make the scenario produce the data instead. An
// entry that no longer matches, under any job, fails.
var noDataOK = []noDataExemption{}

// freshNoDataOK are the queries that may return nothing on the fresh account
// only, each with what the panel needs, in the words of its description. Only
// an optional feature left off, or data no exporter can know before it
// exists (the tokens of an account that never held or moved one), belongs
// here: a count or sum over a known label set shows 0, the exporter exports
// it at 0. Each panel must say what it needs in its description.
var freshNoDataOK = []noDataExemption{
	{`max by (account, counterparty, application_id) (time() - woox_transfer_last_timestamp_seconds{job=~"woox", instance=~".+", account=~".*", direction="out", application_id!=""} < 3600) unless on (application_id) woox_transfer_account_info{job=~"woox", instance=~".+", account=~".*|.+"}`, "Empty while no transfer left for an unwatched account"},
	{`sum by (account, direction, token, counterparty) (increase(woox_transfer_amount_total{job=~"woox", instance=~".+", account=~".*"}[1m]))`, "Empty until a transfer of the account is counted"},
	{`max by (account, sub_account_id, sub_account_name) (woox_sub_account_info{job=~"woox", instance=~".+", account=~".*"})`, "Needs --collector.sub-accounts"},
	{`max by (instance) (woox_exporter_state_file_corrupt{job=~"woox", instance=~".+"})`, "need --token-history.state-file"},
	{`sum by (instance) (increase(woox_exporter_state_file_write_failures_total{job=~"woox", instance=~".+"}[1m]))`, "need --token-history.state-file"},
	{`time() - max by (account) (woox_token_history_last_record_timestamp_seconds{job=~"woox", instance=~".+", account=~".*"})`, "Empty until a record of the account is counted"},
	{`sum by (token, transaction_type) (increase(woox_token_history_inflow_total{job=~"woox", instance=~".+", account=~".*", token=~".*"}[1m]))`, "Empty until a record is counted"},
	{`sum by (token, transaction_type) (increase(woox_token_history_outflow_total{job=~"woox", instance=~".+", account=~".*", token=~".*"}[1m]))`, "Empty until a record is counted"},
	{`sum by (account, token, transaction_type) (increase(woox_token_history_inflow_total{job=~"woox", instance=~".+", account=~".*"}[1h]))`, "Empty until a record is counted"},
	{`sum by (account, token, transaction_type) (increase(woox_token_history_outflow_total{job=~"woox", instance=~".+", account=~".*"}[1h]))`, "Empty until a record is counted"},
	{`sum by (account, token, transaction_type) (increase(woox_token_history_records_total{job=~"woox", instance=~".+", account=~".*"}[1h]))`, "Empty until a record is counted"},
	{`(woox_balance_holding{job=~"woox", instance=~".+", account=~".*"} * woox_balance_mark_price{job=~"woox", instance=~".+", account=~".*"}) or woox_balance_holding{job=~"woox", instance=~".+", account=~".*",token="USDT"}`, "Empty while the account holds no token"},
	{`max by (account, token) (woox_balance_holding{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account holds no token"},
	{`max by (account, token) (woox_balance_available{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account holds no token"},
	{`max by (account, token) (woox_balance_frozen{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account holds no token"},
	{`max by (account, token) (woox_balance_staked{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account holds no token"},
	{`max by (account, token) (woox_balance_mark_price{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account holds no token"},
	{`sum by (account, side, token, network, status) (woox_wallet_transfers_in_flight{job=~"woox", instance=~".+", account=~".*"})`, "Empty while nothing is in flight"},
	{`time() - woox_wallet_oldest_in_flight_timestamp_seconds{job=~"woox", instance=~".+", account=~".*"}`, "Empty while nothing is in flight"},
	{`woox_account_fee_rate{job=~"woox", instance=~".+", account=~".*"}`, "Empty when the exchange sends no fee rate"},
	{`woox_balance_unexplained_change{job=~"woox", instance=~".+", account=~".*"}`, "Empty while the account holds no token"},
	{`woox_token_collateral_ratio{job=~"woox", instance=~".+", account=~".*"} and on (job, instance, account, token) (woox_balance_holding{job=~"woox", instance=~".+", account=~".*"} > 0)`, "Empty while the account holds no token"},
	{`abs(woox_position_holding{job=~"woox", instance=~".+", account=~".*"}) * woox_position_mark_price{job=~"woox", instance=~".+", account=~".*"}`, "Empty while the account has no open position"},
	{`max by (symbol) (woox_instrument_trading{job=~"woox", instance=~".+"} == 0)`, "Empty while every symbol trades"},
	{`max by (account, symbol) (woox_position_holding{job=~"woox", instance=~".+", account=~".*"} != 0) unless on (account, symbol) max by (account, symbol) (woox_open_algo_orders{job=~"woox", instance=~".+", account=~".*", algo_type=~"STOP|STOP_LOSS|TP_SL|POSITIONAL_TP_SL|TRAILING_STOP|OCO|BRACKET"} > 0)`, "Empty while every position has a stop"},
	{`sum by (account, symbol) (max by (account, symbol, position_side) (woox_position_holding{job=~"woox", instance=~".+", account=~".*"} * woox_position_mark_price{job=~"woox", instance=~".+", account=~".*"})) * on (symbol) group_left () max by (symbol) (woox_futures_est_funding_rate{job=~"woox", instance=~".+"})`, "Empty while the account has no open position"},
	{`max by (account, symbol) (woox_symbol_max_leverage{job=~"woox", instance=~".+", account=~".*"}) and on (account, symbol) max by (account, symbol) (woox_position_holding{job=~"woox", instance=~".+", account=~".*"} != 0)`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (abs(woox_position_holding{job=~"woox", instance=~".+", account=~".*"}) * woox_position_mark_price{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (woox:position_liquidation_distance:ratio{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (woox_position_adl_quantile{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (woox_position_average_open_price{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (woox_position_estimated_liquidation_price{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (woox_position_holding{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (woox_position_isolated_margin{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (woox_position_leverage{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (woox_position_mark_price{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`max by (account, symbol, position_side, margin_mode) (woox_position_pnl_24h{job=~"woox", instance=~".+", account=~".*"})`, "Empty while the account has no open position"},
	{`woox:position_liquidation_distance:ratio{job=~"woox", instance=~".+", account=~".*"}`, "Empty while the account has no open position"},
	{`woox_position_adl_quantile{job=~"woox", instance=~".+", account=~".*"}`, "Empty while the account has no open position"},
	{`woox_position_fee_24h{job=~"woox", instance=~".+", account=~".*"}`, "Empty while the account has no open position"},
	{`woox_position_holding{job=~"woox", instance=~".+", account=~".*"}`, "Empty while the account has no open position"},
	{`woox_position_leverage{job=~"woox", instance=~".+", account=~".*"}`, "Empty while the account has no open position"},
	{`woox_position_pnl_24h{job=~"woox", instance=~".+", account=~".*"}`, "Empty while the account has no open position"},
	{`max by (account, destination, token, network, address, tag, amount, id) (woox_wallet_withdrawal_destination_info{job=~"woox", instance=~".+", account=~".*"})`, "Empty while no withdrawal went to an unlisted or new address"},
	{`sum by (account, destination) (increase(woox_wallet_withdrawals_total{job=~"woox", instance=~".+", account=~".*"}[1m]))`, "Empty until a withdrawal of the account is counted"},
	{`sum by (account, symbol) (increase(woox_funding_fee_amount_total{job=~"woox", instance=~".+", account=~".*", direction="received"}[1m]) or 0 * increase(woox_funding_fee_amount_total{job=~"woox", instance=~".+", account=~".*", direction="paid"}[1m])) - sum by (account, symbol) (increase(woox_funding_fee_amount_total{job=~"woox", instance=~".+", account=~".*", direction="paid"}[1m]) or 0 * increase(woox_funding_fee_amount_total{job=~"woox", instance=~".+", account=~".*", direction="received"}[1m]))`, "Empty until a funding payment of the account is counted"},
}

// forJob is the exemption's query under job.
func (e noDataExemption) forJob(job string) string {
	return strings.ReplaceAll(e.query, `job=~"woox"`, fmt.Sprintf("job=~%q", job))
}

// strippedQueries are the dashboard's queries for job, their constant
// fallbacks removed.
func strippedQueries(t *testing.T, d *dashboard.Dashboard, job string) []dashboard.Query {
	t.Helper()
	qs, err := d.Queries(dashboard.Values{Job: job})
	if err != nil {
		t.Fatal(err)
	}
	for i := range qs {
		qs[i].Expr = dashboard.StripFallback(qs[i].Expr)
	}
	return qs
}

// TestFreshDashboardExemptionsSayWhatThePanelNeeds holds freshNoDataOK to the
// dashboard without running anything: each entry matches a query, and the
// panel of that query says in its description what the entry says it needs,
// so that a user looking at an empty panel reads why.
func TestFreshDashboardExemptionsSayWhatThePanelNeeds(t *testing.T) {
	d, err := dashboard.Load(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	qs := strippedQueries(t, d, "woox")
	for _, e := range freshNoDataOK {
		found := false
		for _, q := range qs {
			if q.Expr != e.query {
				continue
			}
			found = true
			p, _ := d.PanelByID(q.PanelID)
			if !strings.Contains(p.Description, e.why) {
				t.Errorf("panel %d %q may be empty on a fresh account, but its description does not say %q: %s", q.PanelID, p.Title, e.why, p.Description)
			}
		}
		if !found {
			t.Errorf("fresh exemption matches no dashboard query: %s", e.query)
		}
	}
}

// leftoverFallback is a constant vector that StripFallback left in place.
var leftoverFallback = regexp.MustCompile(`vector\([-+0-9. ]+\)`)

// checkDashboardQueries runs every dashboard query against prom: each runs
// as the dashboard has it (job woox); without its constant fallback, none
// is left, and each returns data under every job of exempt but the queries
// that job's entries exempt, each entry used. logs names the processes
// whose logs a failure shows, by job.
func checkDashboardQueries(t *testing.T, prom *promtest.Server, exempt map[string][]noDataExemption, logs func(job string) string) {
	t.Helper()
	d, err := dashboard.Load(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := d.Queries(dashboard.Values{Job: "woox"})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if _, err := prom.Query(q.Expr, time.Now()); err != nil {
			t.Errorf("dashboard query of panel %d does not run: %s\n%v", q.PanelID, q.Expr, err)
		}
	}
	for _, q := range strippedQueries(t, d, "woox") {
		if leftoverFallback.MatchString(q.Expr) {
			t.Errorf("a constant fallback dashboard.StripFallback does not strip, panel %d: %s", q.PanelID, q.Expr)
		}
	}
	for _, job := range []string{"woox", "woox-fresh"} {
		checkDashboardData(t, prom, strippedQueries(t, d, job), job, exempt[job], logs)
	}
	t.Logf("all %d dashboard queries run", len(qs))
}

// checkDashboardData checks that each query of job returns data but those
// entries exempt, and that each entry exempts one.
func checkDashboardData(t *testing.T, prom *promtest.Server, qs []dashboard.Query, job string, entries []noDataExemption, logs func(job string) string) {
	t.Helper()
	var empty []string
	used := map[string]bool{}
	for _, q := range qs {
		v, err := prom.Query(q.Expr, time.Now())
		if err != nil {
			t.Errorf("job %s: dashboard query of panel %d does not run: %s\n%v", job, q.PanelID, q.Expr, err)
			continue
		}
		if len(v) > 0 {
			continue
		}
		if i := slices.IndexFunc(entries, func(e noDataExemption) bool { return e.forJob(job) == q.Expr }); i >= 0 {
			used[entries[i].query] = true
			continue
		}
		empty = append(empty, fmt.Sprintf("panel %d: %s", q.PanelID, q.Expr))
	}
	if len(empty) > 0 {
		t.Errorf("dashboard queries of job %s (fallbacks removed) returned no data:\n  %s\n%s", job, strings.Join(empty, "\n  "), logs(job))
	}
	for _, e := range entries {
		if !used[e.query] {
			t.Errorf("exemption has data now under job %s, or matches no query; remove it: %s (%s)", job, e.query, e.why)
		}
	}
	t.Logf("job %s: %d dashboard queries checked without their fallbacks (%d exempt)", job, len(qs), len(used))
}
