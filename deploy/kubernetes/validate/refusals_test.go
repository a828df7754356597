package main

import (
	"cmp"
	"strings"
	"testing"
)

// refusals are values the exporter would refuse at start (its pods would
// crash-loop: config/file.go, config/secret.go, shard/, a flag given twice),
// or that would open the metrics port to more than the scraper. schema is
// what values.schema.json says of them ("" when the schema lets them through
// to the templates); template is what templates/_validate.tpl says with the
// schema skipped ("" when the schema alone refuses them).
var refusals = []struct {
	values, schema, template string
}{
	{account, "", "accounts need their API secrets"},
	{account + "secrets: {existingSecret: s, create: {main: x}}", "", "set existingSecret or create, not both"},
	{account + "secrets: {create: {other: x}}", "", `accounts[0] ("main"): secrets.create has no key "main"`},
	{"accounts: [{name: main, api_key: K, api_secret_file: /x}]\nsecrets: {existingSecret: s}", "additional properties 'api_secret_file' not allowed", "not api_secret, api_secret_file or api_secret_env"},
	{"accounts: [{name: main, api_key: K, api_secrets: x}]\nsecrets: {existingSecret: s}", "additional properties 'api_secrets' not allowed", `unknown field "api_secrets"`},
	{"accounts: [{name: main}]\nsecrets: {existingSecret: s}", "missing property 'api_key'", `accounts[0] ("main"): api_key is required`},
	{"accounts: [{api_key: K}]\nsecrets: {existingSecret: s}", "missing property 'name'", "accounts[0]: name is required"},
	{"accounts: [{name: my acct, api_key: K}]\nsecrets: {existingSecret: s}", "'my acct' does not match pattern", `name "my acct" must match ^[a-zA-Z0-9_.-]+$, as it becomes a label value`},
	{"accounts: [{name: main, api_key: K}, {name: main, api_key: L}]\nsecrets: {existingSecret: s}", "", `accounts[1] ("main"): duplicate account name "main", first given as accounts[0]`},
	{"accounts: [{name: main, api_key: K}, {name: hedging, api_key: K}]\nsecrets: {existingSecret: s}", "", `accounts[1] ("hedging"): the same api_key as accounts[0]: both would poll one account`},
	{"accounts: [{name: main, api_key: 'KEY SPACE'}]\nsecrets: {existingSecret: s}", "", "api_key must not contain whitespace or control characters"},
	{"accounts: [{name: main, api_key: K, secretKey: '..'}]\nsecrets: {existingSecret: s}", "", `secretKey ".." is not a key a Secret may hold`},
	{account + "secrets: {create: {main: 'S3CRET SPACE'}}", "", "secrets.create.main: the secret is empty or contains whitespace or control characters"},
	{account + "secrets: {create: {main: ''}}", "at '/secrets/create/main': minLength", "secrets.create.main: the secret is empty"},
	{"shards: 0", "at '/shards': minimum: got 0, want 1", "shards must be 1 or more, a whole number (got 0)"},
	{"shards: 1.5", "at '/shards'", "shards must be 1 or more, a whole number (got 1.5)"},
	{"shards: two", "at '/shards'", "shards: two is not a number"},
	{"extraArgs: [--shard.index=1]", "", "extraArgs[0]: --shard.index is the chart's own flag"},
	{"extraArgs: [--log.format=json, --config.file=/x]", "", "extraArgs[1]: --config.file is the chart's own flag"},
	{"extraArgs: [--web.config.file=/x]", "", "extraArgs[0]: --web.config.file is the chart's own flag"},
	{"networkPolicy: {namespaceSelector: {matchLabels: {}}}", "", "networkPolicy.namespaceSelector: name the scraper's namespace"},
	{"networkPolicy: {podSelector: {matchExpressions: []}}", "", "networkPolicy.podSelector: name the scraper's pods"},
	{"networkPolicy: {from: [{podSelector: {matchLabels: {app: prometheus}}}]}", "additional properties 'from' not allowed", "networkPolicy.from was replaced"},
	{"networkPolicy: {extraFrom: [{podSelector: {}}]}", "", "networkPolicy.extraFrom[0]: name the scraper's pods"},
	{"networkPolicy: {extraFrom: [{namespaceSelector: {}, podSelector: {matchLabels: {app: vm}}}]}", "", "networkPolicy.extraFrom[0]: an empty namespaceSelector admits"},
	{"webConfig: {existingSecret: Web_Config}", "at '/webConfig/existingSecret'", `webConfig.existingSecret: "Web_Config" is not a Secret's name`},
	{"podDisruptionBudget: {maxUnavailable: 0}", "at '/podDisruptionBudget/maxUnavailable': minimum", ""},
	{"topologySpreadConstraints: [{maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: Sometimes}]", "at '/topologySpreadConstraints/0/whenUnsatisfiable'", ""},
	{"shard: 3", "additional properties 'shard' not allowed", ""},
}

// account is one account, without its secret's source.
const account = "accounts: [{name: main, api_key: K}]\n"

// Each refused value stops helm template with a message naming it: the
// schema's, or the templates' where the schema lets it through; and with the
// schema skipped (--skip-schema-validation), the templates'. No message
// holds a secret or an API key.
func TestChartRefusesBadValues(t *testing.T) {
	helm := helmBinary(t)
	for _, tc := range refusals {
		for _, mode := range []struct {
			name, want string
			args       []string
		}{{"schema", cmp.Or(tc.schema, tc.template), nil}, {"template", tc.template, []string{"--skip-schema-validation"}}} {
			if mode.want == "" {
				continue
			}
			t.Run(mode.name+"/"+tc.values, func(t *testing.T) {
				_, err := helmTemplate(helm, chartDir, "woox-exporter", mode.args, valuesFile(t, tc.values))
				if err == nil || !strings.Contains(err.Error(), mode.want) {
					t.Fatalf("values %q: error %v, want one containing %q", tc.values, err, mode.want)
				}
				for _, secret := range []string{"S3CRET", "KEY SPACE"} {
					if strings.Contains(err.Error(), secret) {
						t.Errorf("the error echoes a secret or a key (%q): %v", secret, err)
					}
				}
			})
		}
	}
}

// Every refusal is shown to the schema or to the templates, and every
// problem in one set of values is reported at once.
func TestChartReportsEveryProblem(t *testing.T) {
	helm := helmBinary(t)
	values := "accounts: [{name: main, api_key: K}, {name: main, api_key: K}]\nsecrets: {existingSecret: s}\nshards: 0\nextraArgs: [--shard.count=3]"
	_, err := helmTemplate(helm, chartDir, "woox-exporter", []string{"--skip-schema-validation"}, valuesFile(t, values))
	for _, want := range []string{"duplicate account name", "the same api_key", "shards must be 1 or more", "--shard.count is the chart's own flag"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one containing %q", err, want)
		}
	}
}
