// The Grafana dashboard of woox_exporter, rendered to
// dashboards/woox_exporter.json by scripts/mixin.sh in grafana.com's export
// format (__inputs, __requires), read-only (editable: false): edit the
// mixin, not the dashboard in Grafana.
local ds = { type: 'prometheus', uid: '${datasource}' };
local sel = 'job=~"$job", instance=~"$instance"';

local target(expr, legend, refId='A') = {
  datasource: ds,
  refId: refId,
  expr: expr,
  legendFormat: legend,
  range: true,
  instant: false,
  format: 'time_series',
};

local timeseries(id, title, description, unit, gridPos, targets) = {
  type: 'timeseries',
  id: id,
  title: title,
  description: description,
  datasource: ds,
  targets: targets,
  fieldConfig: {
    defaults: {
      unit: unit,
      custom: { drawStyle: 'line', lineWidth: 1, fillOpacity: 10, showPoints: 'never', spanNulls: false },
      color: { mode: 'palette-classic' },
    },
    overrides: [],
  },
  options: {
    legend: { displayMode: 'table', placement: 'right', showLegend: true, calcs: ['lastNotNull', 'max'] },
    tooltip: { mode: 'multi', sort: 'desc' },
  },
  gridPos: gridPos,
};

// A multi-value query variable over a label of the exporter's series.
local queryVar(name, label, query, allValue) = {
  name: name,
  label: label,
  type: 'query',
  datasource: ds,
  definition: query,
  query: { query: query, refId: 'PrometheusVariableQueryEditor-VariableQuery', qryType: 1 },
  current: {},
  hide: 0,
  includeAll: true,
  allValue: allValue,
  multi: true,
  options: [],
  refresh: 2,
  regex: '',
  skipUrlSync: false,
  sort: 1,
};

// Why polls fail, and the state file and token history health: series the
// alerts of the same names watch (RUNBOOK.md).
local healthPanels = [
  timeseries(
    50,
    'Poll failures by reason',
    'Failed polls per interval, by endpoint, account and reason (rate_limited, auth, maintenance, transient, bad_response, stalled). WooxPollFailing fires after some minutes of failures; this shows why.',
    'short',
    { h: 8, w: 12, x: 0, y: 161 },
    [target('sum by (endpoint, account, reason) (increase(woox_poll_failures_total{%s, account=~"$account|"}[$__rate_interval]))' % sel, '{{endpoint}} {{account}} {{reason}}')],
  ),
  timeseries(
    51,
    'State file and token history consistency',
    'State file set aside at start (1 = corrupt, counters restarted from zero), failed state file writes and inconsistent token history polls (the exchange overstating meta.total) per interval. Each has an alert (RUNBOOK.md). The state file series need --token-history.state-file: without it only the inconsistent polls show.',
    'short',
    { h: 8, w: 12, x: 12, y: 161 },
    [
      target('max by (instance) (woox_exporter_state_file_corrupt{%s})' % sel, 'state file corrupt {{instance}}', 'A'),
      target('sum by (instance) (increase(woox_exporter_state_file_write_failures_total{%s}[$__rate_interval]))' % sel, 'state file write failures {{instance}}', 'B'),
      target('sum by (account) (increase(woox_token_history_inconsistent_polls_total{%s, account=~"$account"}[$__rate_interval]))' % sel, 'inconsistent polls {{account}}', 'C'),
    ],
  ),
];

{
  grafanaDashboards+:: {
    'woox_exporter.json': {
      local cfg = $._config,
      __inputs: [{
        name: 'DS_PROMETHEUS',
        label: 'Prometheus',
        description: 'The Prometheus that scrapes woox_exporter',
        type: 'datasource',
        pluginId: 'prometheus',
        pluginName: 'Prometheus',
      }],
      __requires: [
        { type: 'grafana', id: 'grafana', name: 'Grafana', version: '10.0.0' },
        { type: 'datasource', id: 'prometheus', name: 'Prometheus', version: '1.0.0' },
        { type: 'panel', id: 'bargauge', name: 'Bar gauge', version: '' },
        { type: 'panel', id: 'stat', name: 'Stat', version: '' },
        { type: 'panel', id: 'state-timeline', name: 'State timeline', version: '' },
        { type: 'panel', id: 'table', name: 'Table', version: '' },
        { type: 'panel', id: 'timeseries', name: 'Time series', version: '' },
      ],
      annotations: {
        list: [{
          builtIn: 1,
          datasource: { type: 'grafana', uid: '-- Grafana --' },
          enable: true,
          hide: true,
          iconColor: 'rgba(0, 211, 255, 1)',
          name: 'Annotations & Alerts',
          type: 'dashboard',
        }],
      },
      description: 'WOO X API keys, token networks, account token history, exchange status, margin, balances and transfers, from woox_exporter.',
      editable: false,
      fiscalYearStartMonth: 0,
      graphTooltip: 1,
      id: null,
      links: [{
        title: 'Runbook',
        type: 'link',
        url: cfg.runbookURL,
        targetBlank: true,
        icon: 'doc',
        tooltip: '',
        asDropdown: false,
        includeVars: false,
        keepTime: false,
        tags: [],
      }],
      panels: (import 'panels.libsonnet')(cfg) + healthPanels,
      refresh: cfg.dashboardRefresh,
      schemaVersion: 39,
      tags: cfg.dashboardTags,
      templating: {
        list: [
          {
            name: 'datasource',
            label: 'Data source',
            type: 'datasource',
            query: 'prometheus',
            current: {},
            hide: 0,
            includeAll: false,
            multi: false,
            options: [],
            refresh: 1,
            regex: '',
            skipUrlSync: false,
          },
          queryVar('job', 'job', 'label_values(woox_exporter_build_info{%s}, job)' % cfg.wooxSelector, '.+'),
          queryVar('instance', 'instance', 'label_values(woox_exporter_build_info{job=~"$job"}, instance)', '.+'),
          queryVar('account', 'Account', 'label_values(woox_api_key_info{%s}, account)' % sel, '.*'),
          queryVar('token', 'Token', 'label_values(woox_token_network_info{%s}, token)' % sel, '.*'),
          // The token history flow panels repeat per value of this
          // variable: amounts of different tokens are in different units.
          queryVar('history_token', 'History token', 'label_values(woox_token_history_records_total{%s, account=~"$account"}, token)' % sel, '.*'),
        ],
      },
      time: { from: 'now-6h', to: 'now' },
      timepicker: {},
      timezone: '',
      title: cfg.dashboardTitle,
      uid: cfg.dashboardUID,
      version: 1,
      weekStart: '',
    },
  },
}
