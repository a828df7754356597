// The panels of the woox_exporter dashboard, as data. Every query selects
// job=~"$job", instance=~"$instance" (dashboard-lint.sh checks it). A function
// of the mixin's _config: the panels that show an alert's threshold read it
// from there.
function(cfg)
  // Seconds as Prometheus writes a duration: 3600 -> 1h, 300 -> 5m.
  local duration(s) =
    if s % 3600 == 0 then '%dh' % (s / 3600)
    else if s % 60 == 0 then '%dm' % (s / 60)
    else '%ds' % s;
  local endpoints(re) = std.join(', ', std.split(re, '|'));
[
  {
    type: 'row',
    id: 1,
    title: 'Key security',
    collapsed: false,
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    gridPos: {
      h: 1,
      w: 24,
      x: 0,
      y: 0,
    },
    panels: [],
  },
  {
    type: 'stat',
    id: 2,
    title: 'Keys without IP restriction',
    description: 'API keys usable from any IP address; 0 when every key is restricted.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum(woox_api_key_ip_restricted{job=~"$job", instance=~"$instance", account=~"$account"} == bool 0)',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'red',
              value: 1,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 0,
      y: 1,
    },
  },
  {
    type: 'stat',
    id: 3,
    title: 'Keys that can withdraw',
    description: 'API keys holding the WITHDRAWAL permission; 0 when none does.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum(woox_api_key_permission{job=~"$job", instance=~"$instance", account=~"$account",permission="WITHDRAWAL"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'red',
              value: 1,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 6,
      y: 1,
    },
  },
  {
    type: 'stat',
    id: 4,
    title: 'Unrestricted keys that can withdraw',
    description: 'API keys with WITHDRAWAL and no IP restriction: the riskiest kind.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum((woox_api_key_ip_restricted{job=~"$job", instance=~"$instance", account=~"$account"} == bool 0) * on (job, instance, account, api_key) woox_api_key_permission{job=~"$job", instance=~"$instance", account=~"$account",permission="WITHDRAWAL"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'red',
              value: 1,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 12,
      y: 1,
    },
  },
  {
    type: 'stat',
    id: 5,
    title: 'Exporter key: permissions beyond READ',
    description: 'Permissions other than READ held by the keys woox_exporter itself uses. Should be 0.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum(woox_exporter_api_key_permission{job=~"$job", instance=~"$instance", account=~"$account",permission!="READ"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'red',
              value: 1,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 18,
      y: 1,
    },
  },
  {
    type: 'table',
    id: 6,
    title: 'API keys',
    description: 'Every API key of the selected accounts: permissions and IP restriction. Red cells are risky.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'max by (account, api_key, account_name, user_id) (woox_api_key_info{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'B',
        expr: 'max by (account, api_key) (woox_api_key_ip_restricted{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'C',
        expr: 'max by (account, api_key) (woox_api_key_allowed_ips{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'D',
        expr: 'max by (account, api_key) (woox_api_key_permission{job=~"$job", instance=~"$instance", account=~"$account",permission="READ"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'E',
        expr: 'max by (account, api_key) (woox_api_key_permission{job=~"$job", instance=~"$instance", account=~"$account",permission="TRADE"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'F',
        expr: 'max by (account, api_key) (woox_api_key_permission{job=~"$job", instance=~"$instance", account=~"$account",permission="WITHDRAWAL"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
    ],
    transformations: [
      {
        id: 'merge',
        options: {},
      },
      {
        id: 'organize',
        options: {
          excludeByName: {
            Time: true,
            'Value #A': true,
          },
          indexByName: {
            account: 0,
            account_name: 1,
            user_id: 2,
            api_key: 3,
            'Value #B': 4,
            'Value #C': 5,
            'Value #D': 6,
            'Value #E': 7,
            'Value #F': 8,
          },
          renameByName: {
            account_name: 'account name',
            user_id: 'user id',
            api_key: 'API key',
            'Value #B': 'IP restricted',
            'Value #C': 'allowed IPs',
            'Value #D': 'READ',
            'Value #E': 'TRADE',
            'Value #F': 'WITHDRAWAL',
          },
        },
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          align: 'auto',
          cellOptions: {
            type: 'auto',
          },
          filterable: true,
        },
        unit: 'none',
      },
      overrides: [
        {
          matcher: {
            id: 'byName',
            options: 'IP restricted',
          },
          properties: [
            {
              id: 'mappings',
              value: [
                {
                  type: 'value',
                  options: {
                    '0': {
                      text: 'NO',
                      color: 'red',
                      index: 0,
                    },
                    '1': {
                      text: 'yes',
                      color: 'green',
                      index: 1,
                    },
                  },
                },
              ],
            },
            {
              id: 'custom.cellOptions',
              value: {
                type: 'color-background',
                mode: 'basic',
              },
            },
          ],
        },
        {
          matcher: {
            id: 'byName',
            options: 'TRADE',
          },
          properties: [
            {
              id: 'mappings',
              value: [
                {
                  type: 'value',
                  options: {
                    '0': {
                      text: 'no',
                      color: 'green',
                      index: 0,
                    },
                    '1': {
                      text: 'yes',
                      color: 'red',
                      index: 1,
                    },
                  },
                },
              ],
            },
            {
              id: 'custom.cellOptions',
              value: {
                type: 'color-background',
                mode: 'basic',
              },
            },
          ],
        },
        {
          matcher: {
            id: 'byName',
            options: 'WITHDRAWAL',
          },
          properties: [
            {
              id: 'mappings',
              value: [
                {
                  type: 'value',
                  options: {
                    '0': {
                      text: 'no',
                      color: 'green',
                      index: 0,
                    },
                    '1': {
                      text: 'yes',
                      color: 'red',
                      index: 1,
                    },
                  },
                },
              ],
            },
            {
              id: 'custom.cellOptions',
              value: {
                type: 'color-background',
                mode: 'basic',
              },
            },
          ],
        },
        {
          matcher: {
            id: 'byName',
            options: 'READ',
          },
          properties: [
            {
              id: 'mappings',
              value: [
                {
                  type: 'value',
                  options: {
                    '0': {
                      text: 'no',
                      color: 'green',
                      index: 0,
                    },
                    '1': {
                      text: 'yes',
                      color: 'green',
                      index: 1,
                    },
                  },
                },
              ],
            },
            {
              id: 'custom.cellOptions',
              value: {
                type: 'color-background',
                mode: 'basic',
              },
            },
          ],
        },
      ],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: {
        show: false,
        reducer: [
          'sum',
        ],
        fields: '',
      },
      sortBy: [
        {
          displayName: 'IP restricted',
          desc: false,
        },
      ],
    },
    gridPos: {
      h: 9,
      w: 18,
      x: 0,
      y: 5,
    },
  },
  {
    type: 'table',
    id: 7,
    title: "Exporter's own key",
    description: 'Permissions of the key woox_exporter uses for each account. Only READ should say yes.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'max by (account, permission) (woox_exporter_api_key_permission{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
    ],
    transformations: [
      {
        id: 'merge',
        options: {},
      },
      {
        id: 'organize',
        options: {
          excludeByName: {
            Time: true,
          },
          renameByName: {
            Value: 'granted',
          },
        },
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          align: 'auto',
          cellOptions: {
            type: 'auto',
          },
          filterable: true,
        },
        unit: 'none',
      },
      overrides: [
        {
          matcher: {
            id: 'byName',
            options: 'granted',
          },
          properties: [
            {
              id: 'mappings',
              value: [
                {
                  type: 'value',
                  options: {
                    '0': {
                      text: 'no',
                      color: 'green',
                      index: 0,
                    },
                    '1': {
                      text: 'yes',
                      color: 'green',
                      index: 1,
                    },
                  },
                },
              ],
            },
            {
              id: 'custom.cellOptions',
              value: {
                type: 'color-background',
                mode: 'basic',
              },
            },
          ],
        },
      ],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: {
        show: false,
        reducer: [
          'sum',
        ],
        fields: '',
      },
    },
    gridPos: {
      h: 9,
      w: 6,
      x: 18,
      y: 5,
    },
  },
  {
    type: 'table',
    id: 34,
    title: 'Sub-accounts',
    description: 'Sub-accounts of each selected main account. Needs --collector.sub-accounts (off by default): empty without it. WooxNewSubAccount fires for one that appeared within the last hour.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'max by (account, sub_account_id, sub_account_name) (woox_sub_account_info{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
    ],
    transformations: [
      {
        id: 'merge',
        options: {},
      },
      {
        id: 'organize',
        options: {
          excludeByName: {
            Time: true,
            Value: true,
          },
          indexByName: {
            account: 0,
            sub_account_id: 1,
            sub_account_name: 2,
          },
          renameByName: {
            sub_account_id: 'sub-account id',
            sub_account_name: 'sub-account name',
          },
        },
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          align: 'auto',
          cellOptions: {
            type: 'auto',
          },
          filterable: true,
        },
        unit: 'none',
      },
      overrides: [],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: {
        show: false,
        reducer: [
          'sum',
        ],
        fields: '',
      },
    },
    gridPos: {
      h: 6,
      w: 24,
      x: 0,
      y: 14,
    },
  },
  {
    type: 'row',
    id: 8,
    title: 'Token networks',
    collapsed: false,
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    gridPos: {
      h: 1,
      w: 24,
      x: 0,
      y: 20,
    },
    panels: [],
  },
  {
    type: 'stat',
    id: 9,
    title: 'Networks',
    description: 'Token networks WOO X lists for the selected tokens.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'count(woox_token_network_info{job=~"$job", instance=~"$instance", token=~"$token"}) or vector(0)',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'blue',
              value: null,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 0,
      y: 21,
    },
  },
  {
    type: 'stat',
    id: 10,
    title: 'Withdrawals disabled',
    description: 'Networks of the selected tokens with withdrawals disabled now.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum(woox_token_network_withdrawal_enabled{job=~"$job", instance=~"$instance", token=~"$token"} == bool 0)',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'orange',
              value: 1,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 6,
      y: 21,
    },
  },
  {
    type: 'stat',
    id: 11,
    title: 'Deposits disabled',
    description: 'Networks of the selected tokens with deposits disabled now.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum(woox_token_network_deposit_enabled{job=~"$job", instance=~"$instance", token=~"$token"} == bool 0)',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'orange',
              value: 1,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 12,
      y: 21,
    },
  },
  {
    type: 'stat',
    id: 12,
    title: 'Switched off in the last hour',
    description: 'Networks of the selected tokens whose withdrawals or deposits were enabled within the last hour and are disabled now (what WooxWithdrawalsDisabled and WooxDepositsDisabled alert on); a network with both switched off counts once.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum(clamp_max((woox_token_network_withdrawal_enabled{job=~"$job", instance=~"$instance", token=~"$token"} == bool 0) * (max_over_time(woox_token_network_withdrawal_enabled{job=~"$job", instance=~"$instance", token=~"$token"}[1h]) == bool 1) + (woox_token_network_deposit_enabled{job=~"$job", instance=~"$instance", token=~"$token"} == bool 0) * (max_over_time(woox_token_network_deposit_enabled{job=~"$job", instance=~"$instance", token=~"$token"}[1h]) == bool 1), 1))',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'red',
              value: 1,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 18,
      y: 21,
    },
  },
  {
    type: 'table',
    id: 13,
    title: 'Networks (disabled first)',
    description: 'Deposit and withdrawal flags, fee and minimum withdrawal of every network of the selected tokens, disabled withdrawals first. Use the column filters to narrow down.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'max by (token, network, protocol, name) (woox_token_network_info{job=~"$job", instance=~"$instance", token=~"$token"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'B',
        expr: 'max by (token, network, protocol) (woox_token_network_withdrawal_enabled{job=~"$job", instance=~"$instance", token=~"$token"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'C',
        expr: 'max by (token, network, protocol) (woox_token_network_deposit_enabled{job=~"$job", instance=~"$instance", token=~"$token"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'D',
        expr: 'max by (token, network, protocol) (woox_token_network_withdrawal_fee{job=~"$job", instance=~"$instance", token=~"$token"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'E',
        expr: 'max by (token, network, protocol) (woox_token_network_minimum_withdrawal{job=~"$job", instance=~"$instance", token=~"$token"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
    ],
    transformations: [
      {
        id: 'merge',
        options: {},
      },
      {
        id: 'organize',
        options: {
          excludeByName: {
            Time: true,
            'Value #A': true,
          },
          indexByName: {
            token: 0,
            network: 1,
            protocol: 2,
            name: 3,
            'Value #B': 4,
            'Value #C': 5,
            'Value #D': 6,
            'Value #E': 7,
          },
          renameByName: {
            'Value #B': 'withdrawals',
            'Value #C': 'deposits',
            'Value #D': 'withdrawal fee',
            'Value #E': 'minimum withdrawal',
          },
        },
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          align: 'auto',
          cellOptions: {
            type: 'auto',
          },
          filterable: true,
        },
        unit: 'none',
      },
      overrides: [
        {
          matcher: {
            id: 'byName',
            options: 'withdrawals',
          },
          properties: [
            {
              id: 'mappings',
              value: [
                {
                  type: 'value',
                  options: {
                    '0': {
                      text: 'DISABLED',
                      color: 'red',
                      index: 0,
                    },
                    '1': {
                      text: 'enabled',
                      color: 'green',
                      index: 1,
                    },
                  },
                },
              ],
            },
            {
              id: 'custom.cellOptions',
              value: {
                type: 'color-background',
                mode: 'basic',
              },
            },
          ],
        },
        {
          matcher: {
            id: 'byName',
            options: 'deposits',
          },
          properties: [
            {
              id: 'mappings',
              value: [
                {
                  type: 'value',
                  options: {
                    '0': {
                      text: 'DISABLED',
                      color: 'red',
                      index: 0,
                    },
                    '1': {
                      text: 'enabled',
                      color: 'green',
                      index: 1,
                    },
                  },
                },
              ],
            },
            {
              id: 'custom.cellOptions',
              value: {
                type: 'color-background',
                mode: 'basic',
              },
            },
          ],
        },
      ],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: {
        show: false,
        reducer: [
          'sum',
        ],
        fields: '',
      },
      sortBy: [
        {
          displayName: 'withdrawals',
          desc: false,
        },
      ],
    },
    gridPos: {
      h: 10,
      w: 12,
      x: 0,
      y: 25,
    },
  },
  {
    type: 'timeseries',
    id: 14,
    title: 'Withdrawal fee',
    description: 'Withdrawal fee of each network, in units of its token. Pick tokens with the token variable: units differ between tokens.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'woox_token_network_withdrawal_fee{job=~"$job", instance=~"$instance", token=~"$token"}',
        legendFormat: '{{token}} {{network}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'line',
          lineInterpolation: 'stepAfter',
          lineWidth: 1,
          fillOpacity: 0,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 10,
      w: 12,
      x: 12,
      y: 25,
    },
  },
  {
    type: 'timeseries',
    id: 15,
    title: 'Disabled networks over time',
    description: 'How many networks of the selected tokens had withdrawals or deposits disabled.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum(woox_token_network_withdrawal_enabled{job=~"$job", instance=~"$instance", token=~"$token"} == bool 0)',
        legendFormat: 'withdrawals disabled',
        range: true,
        instant: false,
        format: 'time_series',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'B',
        expr: 'sum(woox_token_network_deposit_enabled{job=~"$job", instance=~"$instance", token=~"$token"} == bool 0)',
        legendFormat: 'deposits disabled',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: 10,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 7,
      w: 24,
      x: 0,
      y: 35,
    },
  },
  {
    type: 'row',
    id: 16,
    title: 'Token history flows',
    collapsed: false,
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    gridPos: {
      h: 1,
      w: 24,
      x: 0,
      y: 42,
    },
    panels: [],
  },
  {
    type: 'stat',
    id: 17,
    title: 'Records in range',
    description: "Token history records counted in the dashboard's time range, every type; 0 when none.",
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum(increase(woox_token_history_records_by_type_total{job=~"$job", instance=~"$instance", account=~"$account"}[$__range]))',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'blue',
              value: null,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 0,
      y: 43,
    },
  },
  {
    type: 'stat',
    id: 18,
    title: 'Liquidations in range',
    description: "LIQUIDATION records in the dashboard's time range; 0 when none.",
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum(increase(woox_token_history_records_by_type_total{job=~"$job", instance=~"$instance", account=~"$account",transaction_type="LIQUIDATION"}[$__range]))',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'red',
              value: 1,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 6,
      x: 6,
      y: 43,
    },
  },
  {
    type: 'stat',
    id: 19,
    title: 'Newest record age',
    description: 'Time since the newest token history record of each selected account. Empty until a record of the account is counted (a new account has none).',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'time() - max by (account) (woox_token_history_last_record_timestamp_seconds{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 's',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'blue',
              value: null,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'value',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'auto',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 4,
      w: 12,
      x: 12,
      y: 43,
    },
  },
  {
    type: 'timeseries',
    id: 20,
    title: 'Inflow of $history_token by type',
    description: 'Positive amounts per interval of one token, by transaction type, in units of that token. One panel per token (variable History token): amounts of different tokens never share an axis. Empty until a record is counted: tokens are known only from their records.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum by (token, transaction_type) (increase(woox_token_history_inflow_total{job=~"$job", instance=~"$instance", account=~"$account", token=~"$history_token"}[$__rate_interval]))',
        legendFormat: '{{transaction_type}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'bars',
          lineWidth: 1,
          fillOpacity: 60,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'normal',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 9,
      w: 24,
      x: 0,
      y: 47,
    },
    repeat: 'history_token',
    repeatDirection: 'h',
    maxPerRow: 4,
  },
  {
    type: 'timeseries',
    id: 21,
    title: 'Outflow of $history_token by type',
    description: 'Negative amounts, as positive numbers, per interval of one token, by transaction type, in units of that token. One panel per token (variable History token): amounts of different tokens never share an axis. Empty until a record is counted: tokens are known only from their records.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum by (token, transaction_type) (increase(woox_token_history_outflow_total{job=~"$job", instance=~"$instance", account=~"$account", token=~"$history_token"}[$__rate_interval]))',
        legendFormat: '{{transaction_type}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'bars',
          lineWidth: 1,
          fillOpacity: 60,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'normal',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 9,
      w: 24,
      x: 0,
      y: 56,
    },
    repeat: 'history_token',
    repeatDirection: 'h',
    maxPerRow: 4,
  },
  {
    type: 'timeseries',
    id: 22,
    title: 'Records by transaction type',
    description: 'Token history records per interval, by transaction type; every documented type, 0 when it has none.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum by (transaction_type) (increase(woox_token_history_records_by_type_total{job=~"$job", instance=~"$instance", account=~"$account"}[$__rate_interval]))',
        legendFormat: '{{transaction_type}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'bars',
          lineWidth: 1,
          fillOpacity: 60,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'normal',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
        // Every documented type is a series: the active ones first.
        sortBy: 'Last *',
        sortDesc: true,
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 9,
      w: 12,
      x: 0,
      y: 65,
    },
  },
  {
    type: 'bargauge',
    id: 23,
    title: 'Records by transaction type in range',
    description: "Token history records in the dashboard's time range, by transaction type, most first; every documented type, 0 when it has none.",
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sort_desc(sum by (transaction_type) (increase(woox_token_history_records_by_type_total{job=~"$job", instance=~"$instance", account=~"$account"}[$__range])))',
        legendFormat: '{{transaction_type}}',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        min: 0,
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'blue',
              value: null,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      orientation: 'horizontal',
      displayMode: 'gradient',
      showUnfilled: true,
      valueMode: 'color',
      namePlacement: 'auto',
      sizing: 'auto',
      minVizHeight: 16,
      minVizWidth: 8,
      maxVizHeight: 300,
    },
    gridPos: {
      h: 9,
      w: 12,
      x: 12,
      y: 65,
    },
  },
  {
    type: 'table',
    id: 24,
    title: 'Flows in range by account, token and type',
    description: "Inflow, outflow and record count over the dashboard's time range. Empty until a record is counted: tokens are known only from their records.",
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum by (account, token, transaction_type) (increase(woox_token_history_inflow_total{job=~"$job", instance=~"$instance", account=~"$account"}[$__range]))',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'B',
        expr: 'sum by (account, token, transaction_type) (increase(woox_token_history_outflow_total{job=~"$job", instance=~"$instance", account=~"$account"}[$__range]))',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'C',
        expr: 'sum by (account, token, transaction_type) (increase(woox_token_history_records_total{job=~"$job", instance=~"$instance", account=~"$account"}[$__range]))',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
    ],
    transformations: [
      {
        id: 'merge',
        options: {},
      },
      {
        id: 'organize',
        options: {
          excludeByName: {
            Time: true,
          },
          indexByName: {
            account: 0,
            token: 1,
            transaction_type: 2,
            'Value #A': 3,
            'Value #B': 4,
            'Value #C': 5,
          },
          renameByName: {
            transaction_type: 'transaction type',
            'Value #A': 'inflow',
            'Value #B': 'outflow',
            'Value #C': 'records',
          },
        },
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          align: 'auto',
          cellOptions: {
            type: 'auto',
          },
          filterable: true,
        },
        unit: 'none',
      },
      overrides: [],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: {
        show: false,
        reducer: [
          'sum',
        ],
        fields: '',
      },
      sortBy: [
        {
          displayName: 'records',
          desc: true,
        },
      ],
    },
    gridPos: {
      h: 9,
      w: 24,
      x: 0,
      y: 74,
    },
  },
  {
    type: 'row',
    id: 35,
    title: 'Exchange status',
    collapsed: false,
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    gridPos: {
      h: 1,
      w: 24,
      x: 0,
      y: 83,
    },
    panels: [],
  },
  {
    type: 'stat',
    id: 36,
    title: 'Exchange status',
    description: "The exchange's current system status. WooxExchangeMaintenance fires for any status but normal, with the announced end time.",
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'max by (status) (woox_exchange_status{job=~"$job", instance=~"$instance"} == 1)',
        legendFormat: '{{status}}',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'blue',
              value: null,
            },
          ],
        },
      },
      overrides: [
        {
          matcher: {
            id: 'byName',
            options: 'normal',
          },
          properties: [
            {
              id: 'color',
              value: {
                mode: 'fixed',
                fixedColor: 'green',
              },
            },
          ],
        },
      ],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      colorMode: 'background',
      graphMode: 'none',
      justifyMode: 'auto',
      orientation: 'auto',
      textMode: 'name',
      wideLayout: true,
      showPercentChange: false,
    },
    gridPos: {
      h: 5,
      w: 6,
      x: 0,
      y: 84,
    },
  },
  {
    type: 'state-timeline',
    id: 37,
    title: 'Exchange status over time',
    description: 'Which status the exchange reported when.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'max by (status) (woox_exchange_status{job=~"$job", instance=~"$instance"})',
        legendFormat: '{{status}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          lineWidth: 0,
          fillOpacity: 80,
        },
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'transparent',
              value: null,
            },
            {
              color: 'orange',
              value: 1,
            },
          ],
        },
        mappings: [
          {
            type: 'value',
            options: {
              '0': {
                text: ' ',
                index: 0,
              },
              '1': {
                text: 'current',
                index: 1,
              },
            },
          },
        ],
        unit: 'none',
      },
      overrides: [
        {
          matcher: {
            id: 'byName',
            options: 'normal',
          },
          properties: [
            {
              id: 'thresholds',
              value: {
                mode: 'absolute',
                steps: [
                  {
                    color: 'transparent',
                    value: null,
                  },
                  {
                    color: 'green',
                    value: 1,
                  },
                ],
              },
            },
          ],
        },
      ],
    },
    options: {
      showValue: 'never',
      mergeValues: true,
      alignValue: 'left',
      rowHeight: 0.9,
      legend: {
        showLegend: false,
        displayMode: 'list',
        placement: 'bottom',
      },
      tooltip: {
        mode: 'single',
        sort: 'none',
      },
    },
    gridPos: {
      h: 5,
      w: 18,
      x: 6,
      y: 84,
    },
  },
  {
    type: 'row',
    id: 38,
    title: 'Margin and fees',
    collapsed: false,
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    gridPos: {
      h: 1,
      w: 24,
      x: 0,
      y: 89,
    },
    panels: [],
  },
  {
    type: 'timeseries',
    id: 39,
    title: 'Margin ratio over maintenance',
    description: 'Margin ratio of each account as a multiple of its maintenance margin ratio, at which WOO X liquidates (1). WooxMarginRatioLow: warning below %g, critical below %g. Accounts without positions (maintenance margin ratio 0) are left out.' % [cfg.marginRatioWarning, cfg.marginRatioCritical],
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'woox_account_margin_ratio{job=~"$job", instance=~"$instance", account=~"$account"} / (woox_account_maintenance_margin_ratio{job=~"$job", instance=~"$instance", account=~"$account"} > 0)',
        legendFormat: '{{account}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'none',
        custom: {
          drawStyle: 'line',
          lineInterpolation: 'stepAfter',
          lineWidth: 1,
          fillOpacity: 0,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
          thresholdsStyle: {
            mode: 'line',
          },
          scaleDistribution: {
            type: 'log',
            log: 2,
          },
        },
        color: {
          mode: 'palette-classic',
        },
        min: 0,
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'red',
              value: null,
            },
            {
              color: 'orange',
              value: cfg.marginRatioCritical,
            },
            {
              color: 'green',
              value: cfg.marginRatioWarning,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 0,
      y: 90,
    },
  },
  {
    type: 'timeseries',
    id: 40,
    title: 'Collateral and account value (USDT)',
    description: 'Total and free collateral and total account value of each account, in USDT, as the exchange computes them.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'woox_account_total_collateral{job=~"$job", instance=~"$instance", account=~"$account"}',
        legendFormat: '{{account}} total collateral',
        range: true,
        instant: false,
        format: 'time_series',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'B',
        expr: 'woox_account_free_collateral{job=~"$job", instance=~"$instance", account=~"$account"}',
        legendFormat: '{{account}} free collateral',
        range: true,
        instant: false,
        format: 'time_series',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'C',
        expr: 'woox_account_value{job=~"$job", instance=~"$instance", account=~"$account"}',
        legendFormat: '{{account}} account value',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'line',
          lineInterpolation: 'stepAfter',
          lineWidth: 1,
          fillOpacity: 0,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
          axisLabel: 'USDT',
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 12,
      y: 90,
    },
  },
  {
    type: 'timeseries',
    id: 41,
    title: 'Fee rates',
    description: 'Trading fee rate of each account by market and side, as a share of the traded amount (the exchange sends basis points); a negative maker rate is a rebate. WooxFeeRateIncreased fires for a rate higher than one hour ago. Empty when the exchange sends no fee rate, as live accounts may.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'woox_account_fee_rate{job=~"$job", instance=~"$instance", account=~"$account"}',
        legendFormat: '{{account}} {{market}} {{side}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'percentunit',
        custom: {
          drawStyle: 'line',
          lineInterpolation: 'stepAfter',
          lineWidth: 1,
          fillOpacity: 0,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 0,
      y: 98,
    },
  },
  {
    type: 'table',
    id: 42,
    title: 'Accounts',
    description: 'Mode, margin ratios and leverage of each account as the exchange reports them.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'max by (account, account_mode) (woox_account_info{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'B',
        expr: 'max by (account) (woox_account_margin_ratio{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'C',
        expr: 'max by (account) (woox_account_initial_margin_ratio{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'D',
        expr: 'max by (account) (woox_account_maintenance_margin_ratio{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'E',
        expr: 'max by (account) (woox_account_leverage{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
    ],
    transformations: [
      {
        id: 'merge',
        options: {},
      },
      {
        id: 'organize',
        options: {
          excludeByName: {
            Time: true,
            'Value #A': true,
          },
          indexByName: {
            account: 0,
            account_mode: 1,
            'Value #B': 2,
            'Value #C': 3,
            'Value #D': 4,
            'Value #E': 5,
          },
          renameByName: {
            account_mode: 'mode',
            'Value #B': 'margin ratio',
            'Value #C': 'initial margin ratio',
            'Value #D': 'maintenance margin ratio',
            'Value #E': 'leverage',
          },
        },
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          align: 'auto',
          cellOptions: {
            type: 'auto',
          },
          filterable: true,
        },
        unit: 'none',
      },
      overrides: [],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: {
        show: false,
        reducer: [
          'sum',
        ],
        fields: '',
      },
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 12,
      y: 98,
    },
  },
  {
    type: 'row',
    id: 43,
    title: 'Balances',
    collapsed: false,
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    gridPos: {
      h: 1,
      w: 24,
      x: 0,
      y: 106,
    },
    panels: [],
  },
  {
    type: 'timeseries',
    id: 44,
    title: 'Value by token (USDT)',
    description: 'Value of each token held, holding times mark price, in USDT; USDT counts at 1. One line per account and token, never stacked: the dashboard does not add up tokens. Tokens without a mark price are left out. Empty while the account holds no token.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: '(woox_balance_holding{job=~"$job", instance=~"$instance", account=~"$account"} * woox_balance_mark_price{job=~"$job", instance=~"$instance", account=~"$account"}) or woox_balance_holding{job=~"$job", instance=~"$instance", account=~"$account",token="USDT"}',
        legendFormat: '{{account}} {{token}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'line',
          lineInterpolation: 'stepAfter',
          lineWidth: 1,
          fillOpacity: 0,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
          axisLabel: 'USDT',
        },
        color: {
          mode: 'palette-classic',
        },
        min: 0,
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 9,
      w: 12,
      x: 0,
      y: 107,
    },
  },
  {
    type: 'table',
    id: 45,
    title: 'Balances (token units)',
    description: "Balances of each account and token in units of the token (units differ between rows), and the token's mark price in USDT. Empty while the account holds no token.",
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'max by (account, token) (woox_balance_holding{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'B',
        expr: 'max by (account, token) (woox_balance_available{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'C',
        expr: 'max by (account, token) (woox_balance_frozen{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'D',
        expr: 'max by (account, token) (woox_balance_staked{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'E',
        expr: 'max by (account, token) (woox_balance_mark_price{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
    ],
    transformations: [
      {
        id: 'merge',
        options: {},
      },
      {
        id: 'organize',
        options: {
          excludeByName: {
            Time: true,
          },
          indexByName: {
            account: 0,
            token: 1,
            'Value #A': 2,
            'Value #B': 3,
            'Value #C': 4,
            'Value #D': 5,
            'Value #E': 6,
          },
          renameByName: {
            'Value #A': 'holding',
            'Value #B': 'available',
            'Value #C': 'frozen',
            'Value #D': 'staked',
            'Value #E': 'mark price (USDT)',
          },
        },
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          align: 'auto',
          cellOptions: {
            type: 'auto',
          },
          filterable: true,
        },
        unit: 'none',
      },
      overrides: [],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: {
        show: false,
        reducer: [
          'sum',
        ],
        fields: '',
      },
      sortBy: [
        {
          displayName: 'token',
          desc: false,
        },
      ],
    },
    gridPos: {
      h: 9,
      w: 12,
      x: 12,
      y: 107,
    },
  },
  {
    type: 'row',
    id: 46,
    title: 'Transfers in flight',
    collapsed: false,
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    gridPos: {
      h: 1,
      w: 24,
      x: 0,
      y: 116,
    },
    panels: [],
  },
  {
    type: 'table',
    id: 47,
    title: 'Transfers in flight',
    description: "Deposits and withdrawals not yet completed, canceled or failed, by account, side, token, network (split from the exchange's network-token id, e.g. TRON_USDT; empty when it cannot be split) and the exchange's status. Only transfers created within --wallet.lookback are seen. Empty while nothing is in flight; the counts per side below show 0 then.",
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum by (account, side, token, network, status) (woox_wallet_transfers_in_flight{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
    ],
    transformations: [
      {
        id: 'merge',
        options: {},
      },
      {
        id: 'organize',
        options: {
          excludeByName: {
            Time: true,
          },
          indexByName: {
            account: 0,
            side: 1,
            token: 2,
            network: 3,
            status: 4,
            Value: 5,
          },
          renameByName: {
            Value: 'transfers',
          },
        },
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          align: 'auto',
          cellOptions: {
            type: 'auto',
          },
          filterable: true,
        },
        unit: 'none',
      },
      overrides: [],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: {
        show: false,
        reducer: [
          'sum',
        ],
        fields: '',
      },
      sortBy: [
        {
          displayName: 'side',
          desc: true,
        },
      ],
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 0,
      y: 117,
    },
  },
  {
    type: 'bargauge',
    id: 48,
    title: 'Oldest transfer in flight',
    description: 'Age of the oldest deposit and the oldest withdrawal still in flight, per account. WooxWithdrawalStuck fires for a withdrawal older than %s. Empty while nothing is in flight.' % duration(cfg.withdrawalStuckSeconds),
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'time() - woox_wallet_oldest_in_flight_timestamp_seconds{job=~"$job", instance=~"$instance", account=~"$account"}',
        legendFormat: '{{account}} {{side}}',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 's',
        min: 0,
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'orange',
              value: cfg.withdrawalStuckSeconds,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      orientation: 'horizontal',
      displayMode: 'gradient',
      showUnfilled: true,
      valueMode: 'color',
      namePlacement: 'auto',
      sizing: 'auto',
      minVizHeight: 16,
      minVizWidth: 8,
      maxVizHeight: 300,
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 12,
      y: 117,
    },
  },
  {
    type: 'timeseries',
    id: 49,
    title: 'Transfers in flight over time',
    description: 'Number of deposits and withdrawals in flight per account and side; 0 when none.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum by (account, side) (woox_wallet_transfers_in_flight_by_side{job=~"$job", instance=~"$instance", account=~"$account"})',
        legendFormat: '{{account}} {{side}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'line',
          lineInterpolation: 'stepAfter',
          lineWidth: 1,
          fillOpacity: 0,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
        min: 0,
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 7,
      w: 24,
      x: 0,
      y: 125,
    },
  },
  {
    type: 'row',
    id: 25,
    title: 'Exporter health',
    collapsed: false,
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    gridPos: {
      h: 1,
      w: 24,
      x: 0,
      y: 132,
    },
    panels: [],
  },
  {
    type: 'timeseries',
    id: 26,
    title: 'Poll success',
    description: '1 when the last poll of an endpoint succeeded. token_network has no account.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'woox_poll_success{job=~"$job", instance=~"$instance", account=~"$account|"}',
        legendFormat: '{{endpoint}} {{account}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: 10,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
        min: 0,
        max: 1,
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 0,
      y: 133,
    },
  },
  {
    type: 'bargauge',
    id: 27,
    title: 'Data age',
    description: 'Time since the last successful poll of each endpoint and account. WooxDataStale fires at %s (%s), %s (%s) and %s (sub_accounts).' % [
      duration(cfg.dataStaleFastSeconds),
      endpoints(cfg.dataStaleFastEndpoints),
      duration(cfg.dataStaleSlowSeconds),
      endpoints(cfg.dataStaleSlowEndpoints),
      duration(cfg.dataStaleSubAccountsSeconds),
    ],
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'time() - woox_poll_last_success_timestamp_seconds{job=~"$job", instance=~"$instance", account=~"$account|"}',
        legendFormat: '{{endpoint}} {{account}}',
        range: false,
        instant: true,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 's',
        min: 0,
        color: {
          mode: 'thresholds',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'green',
              value: null,
            },
            {
              color: 'orange',
              value: cfg.dataStaleFastSeconds,
            },
            {
              color: 'red',
              value: cfg.dataStaleSlowSeconds,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      reduceOptions: {
        calcs: [
          'lastNotNull',
        ],
        fields: '',
        values: false,
      },
      orientation: 'horizontal',
      displayMode: 'gradient',
      showUnfilled: true,
      valueMode: 'color',
      namePlacement: 'auto',
      sizing: 'auto',
      minVizHeight: 16,
      minVizWidth: 8,
      maxVizHeight: 300,
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 12,
      y: 133,
    },
  },
  {
    type: 'timeseries',
    id: 28,
    title: 'API requests by code',
    description: 'Requests to WOO X per second, by endpoint and HTTP status (or error).',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum by (endpoint, code) (rate(woox_api_requests_total{job=~"$job", instance=~"$instance", account=~"$account|"}[$__rate_interval]))',
        legendFormat: '{{endpoint}} {{code}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'reqps',
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: 10,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 0,
      y: 141,
    },
  },
  {
    type: 'timeseries',
    id: 29,
    title: 'HTTP 429 responses',
    description: "Rate-limited requests per interval. Anything above zero means the account's rate limit is shared or the budget flags are too generous.",
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'sum by (endpoint, account) (increase(woox_api_requests_total{job=~"$job", instance=~"$instance", account=~"$account|",code="429"}[$__rate_interval]))',
        legendFormat: '{{endpoint}} {{account}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 'short',
        custom: {
          drawStyle: 'bars',
          lineWidth: 1,
          fillOpacity: 10,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 8,
      w: 12,
      x: 12,
      y: 141,
    },
  },
  {
    type: 'timeseries',
    id: 30,
    title: 'Poll duration',
    description: 'How long the last poll of each endpoint and account took, pages and retries included.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'woox_poll_duration_seconds{job=~"$job", instance=~"$instance", account=~"$account|"}',
        legendFormat: '{{endpoint}} {{account}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 's',
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: 10,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 8,
      w: 8,
      x: 0,
      y: 149,
    },
  },
  {
    type: 'timeseries',
    id: 31,
    title: 'API request latency (p50, p99)',
    description: 'Latency of single requests to WOO X, by endpoint.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'histogram_quantile(0.5, sum by (endpoint, le) (rate(woox_api_request_duration_seconds_bucket{job=~"$job", instance=~"$instance"}[$__rate_interval])))',
        legendFormat: 'p50 {{endpoint}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'B',
        expr: 'histogram_quantile(0.99, sum by (endpoint, le) (rate(woox_api_request_duration_seconds_bucket{job=~"$job", instance=~"$instance"}[$__rate_interval])))',
        legendFormat: 'p99 {{endpoint}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 's',
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: 10,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
        },
        color: {
          mode: 'palette-classic',
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 8,
      w: 8,
      x: 8,
      y: 149,
    },
  },
  {
    type: 'timeseries',
    id: 32,
    title: 'Clock skew',
    description: 'WOO X server time minus local time. WOO X rejects signatures at 300 s; WooxClockSkew fires at %d s.' % cfg.clockSkewSeconds,
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'woox_api_clock_skew_seconds{job=~"$job", instance=~"$instance"}',
        legendFormat: '{{instance}}',
        range: true,
        instant: false,
        format: 'time_series',
      },
    ],
    fieldConfig: {
      defaults: {
        unit: 's',
        custom: {
          drawStyle: 'line',
          lineWidth: 1,
          fillOpacity: 0,
          showPoints: 'never',
          spanNulls: false,
          stacking: {
            mode: 'none',
            group: 'A',
          },
          thresholdsStyle: {
            mode: 'line+area',
          },
        },
        color: {
          mode: 'palette-classic',
        },
        thresholds: {
          mode: 'absolute',
          steps: [
            {
              color: 'red',
              value: null,
            },
            {
              color: 'transparent',
              value: -cfg.clockSkewSeconds,
            },
            {
              color: 'red',
              value: cfg.clockSkewSeconds,
            },
          ],
        },
      },
      overrides: [],
    },
    options: {
      legend: {
        displayMode: 'table',
        placement: 'right',
        showLegend: true,
        calcs: [
          'lastNotNull',
        ],
      },
      tooltip: {
        mode: 'multi',
        sort: 'desc',
      },
    },
    gridPos: {
      h: 8,
      w: 8,
      x: 16,
      y: 149,
    },
  },
  {
    type: 'table',
    id: 33,
    title: 'Exporter build',
    description: 'Version of each running woox_exporter.',
    datasource: {
      type: 'prometheus',
      uid: '${datasource}',
    },
    targets: [
      {
        datasource: {
          type: 'prometheus',
          uid: '${datasource}',
        },
        refId: 'A',
        expr: 'max by (instance, version, revision, branch, goversion) (woox_exporter_build_info{job=~"$job", instance=~"$instance"})',
        legendFormat: '__auto',
        range: false,
        instant: true,
        format: 'table',
      },
    ],
    transformations: [
      {
        id: 'merge',
        options: {},
      },
      {
        id: 'organize',
        options: {
          excludeByName: {
            Time: true,
            Value: true,
          },
        },
      },
    ],
    fieldConfig: {
      defaults: {
        custom: {
          align: 'auto',
          cellOptions: {
            type: 'auto',
          },
          filterable: true,
        },
        unit: 'none',
      },
      overrides: [],
    },
    options: {
      showHeader: true,
      cellHeight: 'sm',
      footer: {
        show: false,
        reducer: [
          'sum',
        ],
        fields: '',
      },
    },
    gridPos: {
      h: 4,
      w: 24,
      x: 0,
      y: 157,
    },
  },
]
