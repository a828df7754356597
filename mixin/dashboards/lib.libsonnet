// Panel constructors of the woox_exporter dashboard: one per panel kind, each
// filling in what every panel of that kind shares (the Prometheus datasource,
// targets with their refIds and query type, the unit, the fieldConfig and
// options defaults, gridPos), so panels.libsonnet only says what differs.
//
// Queries are written with %(sel)s where the job/instance selector goes, or
// %(acc)s / %(tok)s for the selector plus the account / token variable:
//   'sum(woox_api_key_permission{%(acc)s,permission="WITHDRAWAL"})'
// A target is a query (legend '__auto') or [query, legend]; refIds run A, B, ...
// in order. gridPos is [h, w, x, y].
local ds = { type: 'prometheus', uid: '${datasource}' };
local sel = 'job=~"$job", instance=~"$instance"';
local vars = { sel: sel, acc: sel + ', account=~"$account"', tok: sel + ', token=~"$token"' };

// kind: 'range' (time series over the range), 'instant' (last value) or
// 'table' (last value, one column per target).
local targets(list, kind) = [
  local t = if std.isString(list[i]) then [list[i], '__auto'] else list[i];
  {
    datasource: ds,
    refId: std.char(std.codepoint('A') + i),
    expr: t[0] % vars,
    legendFormat: t[1],
    range: kind == 'range',
    instant: kind != 'range',
    format: if kind == 'table' then 'table' else 'time_series',
  }
  for i in std.range(0, std.length(list) - 1)
];

local gridPos(pos) = { h: pos[0], w: pos[1], x: pos[2], y: pos[3] };

// The fields every query panel has.
local panel(type, id, title, description, pos, list, kind) = {
  type: type,
  id: id,
  title: title,
  description: description,
  datasource: ds,
  targets: targets(list, kind),
  gridPos: gridPos(pos),
};

local reduceOptions = { calcs: ['lastNotNull'], fields: '', values: false };

{
  sel: sel,

  // Absolute thresholds: base colour, then [colour, from value] pairs.
  steps(base, more=[]):: {
    mode: 'absolute',
    steps: [{ color: base, value: null }] + [{ color: s[0], value: s[1] } for s in more],
  },

  // A field override: properties ([id, value] pairs) for the field of that name.
  override(name, properties):: {
    matcher: { id: 'byName', options: name },
    properties: [{ id: p[0], value: p[1] } for p in properties],
  },

  // A table column of 0/1 shown as coloured text: [text, colour] for 0, then 1.
  cellMap(name, zero, one):: self.override(name, [
    ['mappings', [{
      options: {
        '0': { color: zero[1], index: 0, text: zero[0] },
        '1': { color: one[1], index: 1, text: one[0] },
      },
      type: 'value',
    }]],
    ['custom.cellOptions', { mode: 'basic', type: 'color-background' }],
  ]),

  // Time series custom styles, merged into the default line style.
  stepped:: { fillOpacity: 0, lineInterpolation: 'stepAfter' },
  stackedBars:: { drawStyle: 'bars', fillOpacity: 60, stacking: { group: 'A', mode: 'normal' } },

  row(id, title, y):: {
    type: 'row',
    id: id,
    title: title,
    collapsed: false,
    datasource: ds,
    gridPos: gridPos([1, 24, 0, y]),
    panels: [],
  },

  stat(id,
       title,
       description,
       pos,
       targets,
       unit='none',
       thresholds=self.steps('green', [['red', 1]]),
       colorMode='background',
       textMode='auto',
       overrides=[])::
    panel('stat', id, title, description, pos, targets, 'instant') + {
      fieldConfig: {
        defaults: { unit: unit, color: { mode: 'thresholds' }, thresholds: thresholds },
        overrides: overrides,
      },
      options: {
        reduceOptions: reduceOptions,
        colorMode: colorMode,
        graphMode: 'none',
        justifyMode: 'auto',
        orientation: 'auto',
        textMode: textMode,
        wideLayout: true,
        showPercentChange: false,
      },
    },

  // custom: merged into the line style; defaults: more fieldConfig defaults
  // (min, max, thresholds); legend: merged into the legend options; extra:
  // more panel fields (repeat).
  timeseries(id, title, description, pos, targets, unit='short', custom={}, defaults={}, legend={}, extra={})::
    panel('timeseries', id, title, description, pos, targets, 'range') + {
      fieldConfig: {
        defaults: {
          unit: unit,
          custom: {
            drawStyle: 'line',
            lineWidth: 1,
            fillOpacity: 10,
            showPoints: 'never',
            spanNulls: false,
            stacking: { mode: 'none', group: 'A' },
          } + custom,
          color: { mode: 'palette-classic' },
        } + defaults,
        overrides: [],
      },
      options: {
        legend: { displayMode: 'table', placement: 'right', showLegend: true, calcs: ['lastNotNull'] } + legend,
        tooltip: { mode: 'multi', sort: 'desc' },
      },
    } + extra,

  bargauge(id, title, description, pos, targets, unit, thresholds)::
    panel('bargauge', id, title, description, pos, targets, 'instant') + {
      fieldConfig: {
        defaults: { unit: unit, min: 0, color: { mode: 'thresholds' }, thresholds: thresholds },
        overrides: [],
      },
      options: {
        reduceOptions: reduceOptions,
        displayMode: 'gradient',
        maxVizHeight: 300,
        minVizHeight: 16,
        minVizWidth: 8,
        namePlacement: 'auto',
        orientation: 'horizontal',
        showUnfilled: true,
        sizing: 'auto',
        valueMode: 'color',
      },
    },

  // One instant query per column set, merged into rows. columns: the column
  // order (left out when empty); rename: old name -> header; hide: columns
  // left out; sortBy: [column, descending].
  table(id, title, description, pos, targets, columns=[], rename={}, hide=['Time'], sortBy=null, overrides=[])::
    panel('table', id, title, description, pos, targets, 'table') + {
      fieldConfig: {
        defaults: {
          unit: 'none',
          custom: { align: 'auto', cellOptions: { type: 'auto' }, filterable: true },
        },
        overrides: overrides,
      },
      options: {
        cellHeight: 'sm',
        footer: { fields: '', reducer: ['sum'], show: false },
        showHeader: true,
      } + (if sortBy == null then {} else { sortBy: [{ displayName: sortBy[0], desc: sortBy[1] }] }),
      transformations: [
        { id: 'merge', options: {} },
        {
          id: 'organize',
          options: { excludeByName: { [c]: true for c in hide } }
                   + (if columns == [] then {} else { indexByName: { [columns[i]]: i for i in std.range(0, std.length(columns) - 1) } })
                   + (if rename == {} then {} else { renameByName: rename }),
        },
      ],
    },

  // A row per series, coloured while its value is 1; mappings: value
  // mappings, overrides: field overrides.
  stateTimeline(id, title, description, pos, targets, thresholds, mappings, overrides)::
    panel('state-timeline', id, title, description, pos, targets, 'range') + {
      fieldConfig: {
        defaults: {
          unit: 'none',
          custom: { fillOpacity: 80, lineWidth: 0 },
          color: { mode: 'thresholds' },
          mappings: mappings,
          thresholds: thresholds,
        },
        overrides: overrides,
      },
      options: {
        alignValue: 'left',
        legend: { displayMode: 'list', placement: 'bottom', showLegend: false },
        mergeValues: true,
        rowHeight: 0.9,
        showValue: 'never',
        tooltip: { mode: 'single', sort: 'none' },
      },
    },

  // A multi-value query variable over a label of the exporter's series.
  queryVar(name, label, query, allValue):: {
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
  },
}
