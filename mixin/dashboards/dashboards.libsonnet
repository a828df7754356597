// The Grafana dashboard of woox_exporter, rendered to
// dashboards/woox_exporter.json by scripts/mixin.sh in grafana.com's export
// format without __inputs (the datasource variable picks the Prometheus, so
// the import dialog asks for nothing), read-only (editable: false): edit the
// mixin, not the dashboard in Grafana.
local lib = import 'lib.libsonnet';
local sel = lib.sel;

{
  grafanaDashboards+:: {
    'woox_exporter.json': {
      local cfg = $._config,
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
      description: 'WOO X API keys, token networks, account token history, exchange status, margin, positions, balances, transfers and security events, from woox_exporter.',
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
      panels: (import 'panels.libsonnet')(cfg),
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
          lib.queryVar('job', 'job', 'label_values(woox_exporter_build_info{%s}, job)' % cfg.wooxSelector, '.+'),
          lib.queryVar('instance', 'instance', 'label_values(woox_exporter_build_info{job=~"$job"}, instance)', '.+'),
          lib.queryVar('account', 'Account', 'label_values(woox_api_key_info{%s}, account)' % sel, '.*'),
          lib.queryVar('token', 'Token', 'label_values(woox_token_network_info{%s}, token)' % sel, '.*'),
          // The token history flow panels repeat per value of this
          // variable: amounts of different tokens are in different units.
          lib.queryVar('history_token', 'History token', 'label_values(woox_token_history_records_total{%s, account=~"$account"}, token)' % sel, '.*'),
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
