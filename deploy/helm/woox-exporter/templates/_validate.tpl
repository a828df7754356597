{{/*
Refuses, at helm install or template, the values the exporter would refuse at
start (a pod that would crash-loop) and those that would open /metrics to
more than the scraper. values.schema.json refuses most of them first; these
checks also hold with --skip-schema-validation, and cover what a schema
cannot say (a name or key listed twice). Every problem is reported at once,
one a line, as the exporter reports its accounts file. Included once, by the
StatefulSet.
*/}}
{{- define "woox-exporter.validate" -}}
{{- $errs := list }}
{{- $errs = concat $errs (include "woox-exporter.validateAccounts" . | fromYamlArray) }}
{{- $errs = concat $errs (include "woox-exporter.validateSecrets" . | fromYamlArray) }}
{{- $errs = concat $errs (include "woox-exporter.validateShards" . | fromYamlArray) }}
{{- $errs = concat $errs (include "woox-exporter.validateNetworkPolicy" . | fromYamlArray) }}
{{- if $errs }}
{{- fail (printf "values the exporter or this chart would refuse:\n- %s" (join "\n- " $errs)) }}
{{- end }}
{{- end }}

{{/*
The accounts, as config/file.go reads them: a name of [a-zA-Z0-9_.-]+ (it
becomes a label value), an api_key without whitespace or control
characters, no name and no api_key twice (both would poll one account and
spend its rate limit twice), no secret in the file. The key in the Secret
(secretKey, default the name) must be a Secret key Kubernetes accepts and a
file name in the secrets directory. A YAML list of messages.
*/}}
{{- define "woox-exporter.validateAccounts" -}}
{{- $errs := list }}
{{- $names := dict }}
{{- $keys := dict }}
{{- if and .Values.accounts (not (kindIs "slice" .Values.accounts)) }}
{{- $errs = append $errs "accounts: must be a list of {name, api_key, secretKey}" }}
{{- else }}
{{- range $i, $a := .Values.accounts }}
{{- $where := printf "accounts[%d]" $i }}
{{- if not (kindIs "map" $a) }}
{{- $errs = append $errs (printf "%s: must be a mapping {name, api_key, secretKey}" $where) }}
{{- continue }}
{{- end }}
{{- $name := $a.name | default "" | toString }}
{{- if $name }}{{ $where = printf "%s (%s)" $where ($name | quote) }}{{ end }}
{{- if not $name }}
{{- $errs = append $errs (printf "%s: name is required" $where) }}
{{- else if not (regexMatch "^[a-zA-Z0-9_.-]+$" $name) }}
{{- $errs = append $errs (printf "%s: name %q must match ^[a-zA-Z0-9_.-]+$, as it becomes a label value" $where $name) }}
{{- else if hasKey $names $name }}
{{- $errs = append $errs (printf "%s: duplicate account name %q, first given as accounts[%v]" $where $name (get $names $name)) }}
{{- else }}
{{- $_ := set $names $name $i }}
{{- end }}
{{- $key := $a.api_key | default "" | toString }}
{{- if not $key }}
{{- $errs = append $errs (printf "%s: api_key is required" $where) }}
{{- else if not (regexMatch `^[^\s\p{Z}\p{Cc}]+$` $key) }}
{{- $errs = append $errs (printf "%s: api_key must not contain whitespace or control characters" $where) }}
{{- else if hasKey $keys $key }}
{{- $errs = append $errs (printf "%s: the same api_key as accounts[%v]: both would poll one account and spend its one rate limit twice; list each account once" $where (get $keys $key)) }}
{{- else }}
{{- $_ := set $keys $key $i }}
{{- end }}
{{- range $field := list "api_secret" "api_secret_file" "api_secret_env" }}
{{- if hasKey $a $field }}
{{- $errs = append $errs (printf "%s: %s: give the API secret through secrets.existingSecret or secrets.create, not api_secret, api_secret_file or api_secret_env" $where $field) }}
{{- end }}
{{- end }}
{{- range $field, $_ := $a }}
{{- if not (has $field (list "name" "api_key" "secretKey" "api_secret" "api_secret_file" "api_secret_env")) }}
{{- $errs = append $errs (printf "%s: unknown field %q (known fields: name, api_key, secretKey)" $where $field) }}
{{- end }}
{{- end }}
{{- $secretKey := $a.secretKey | default $name | toString }}
{{- if not (or $a.secretKey (regexMatch "^[a-zA-Z0-9_.-]+$" $name)) }}
{{- /* the name's own message says it */}}
{{- else if not (include "woox-exporter.isSecretKey" $secretKey) }}
{{- $errs = append $errs (printf "%s: secretKey %q is not a key a Secret may hold ([-._a-zA-Z0-9]+, at most 253 characters, not starting with ..)" $where $secretKey) }}
{{- else if and $secretKey $.Values.secrets.create (not (hasKey $.Values.secrets.create $secretKey)) }}
{{- $errs = append $errs (printf "%s: secrets.create has no key %q" $where $secretKey) }}
{{- end }}
{{- end }}
{{- end }}
{{- toYaml $errs }}
{{- end }}

{{/*
Where the secrets come from: one source, and each secret one the exporter
reads (config/secret.go: not empty once the trailing whitespace an editor
adds is cut, no whitespace or control characters inside). Messages name
the key, never the secret.
*/}}
{{- define "woox-exporter.validateSecrets" -}}
{{- $errs := list }}
{{- $s := .Values.secrets }}
{{- if and $s.existingSecret $s.create }}
{{- $errs = append $errs "secrets: set existingSecret or create, not both" }}
{{- end }}
{{- if and .Values.accounts (not (or $s.existingSecret $s.create)) }}
{{- $errs = append $errs "accounts need their API secrets: set secrets.existingSecret (a Secret you create, one key per account) or secrets.create" }}
{{- end }}
{{- range $key, $secret := $s.create }}
{{- if not (include "woox-exporter.isSecretKey" $key) }}
{{- $errs = append $errs (printf "secrets.create: key %q is not a key a Secret may hold ([-._a-zA-Z0-9]+, at most 253 characters, not starting with ..)" $key) }}
{{- else if not (regexMatch `^[^\s\p{Z}\p{Cc}]+[\s\p{Z}\x{85}]*$` ($secret | toString)) }}
{{- $errs = append $errs (printf "secrets.create.%s: the secret is empty or contains whitespace or control characters, which the exporter refuses" $key) }}
{{- end }}
{{- end }}
{{- with .Values.webConfig.existingSecret }}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$" .) }}
{{- $errs = append $errs (printf "webConfig.existingSecret: %q is not a Secret's name (lowercase DNS subdomain)" .) }}
{{- end }}
{{- end }}
{{- toYaml $errs }}
{{- end }}

{{/*
Shards, as shard/ and options.go take them: --shard.count a whole number of
1 or more, the index from the pod's ordinal alone; and no flag of the
chart's given again in extraArgs, which the exporter refuses (kingpin: a
flag cannot be repeated; --shard.index beside --shard.from-hostname).
*/}}
{{- define "woox-exporter.validateShards" -}}
{{- $errs := list }}
{{- $shards := .Values.shards }}
{{- if not (or (kindIs "float64" $shards) (kindIs "int64" $shards) (kindIs "int" $shards)) }}
{{- $errs = append $errs (printf "shards: %v is not a number; it must be a whole number, 1 or more" $shards) }}
{{- else if or (ne (float64 $shards) (floor $shards)) (lt (float64 $shards) 1.0) }}
{{- $errs = append $errs (printf "shards must be 1 or more, a whole number (got %v): the replicas and --shard.count" $shards) }}
{{- end }}
{{- $own := list "--config.file" "--shard.count" "--shard.index" "--shard.from-hostname" "--no-shard.from-hostname" "--token-history.state-file" "--web.config.file" }}
{{- range $i, $arg := .Values.extraArgs }}
{{- $flag := regexReplaceAll "=.*" ($arg | toString) "" }}
{{- if has $flag $own }}
{{- $errs = append $errs (printf "extraArgs[%d]: %s is the chart's own flag (the exporter refuses a flag given twice, and --shard.index beside --shard.from-hostname): set it through accounts, shards, persistence or webConfig" $i $flag) }}
{{- end }}
{{- end }}
{{- toYaml $errs }}
{{- end }}

{{/*
The NetworkPolicy's peers: none may admit every pod of a namespace or the
scraper's labels in every namespace, which /metrics must not be open to.
*/}}
{{- define "woox-exporter.validateNetworkPolicy" -}}
{{- $errs := list }}
{{- $np := .Values.networkPolicy }}
{{- if $np.enabled }}
{{- if hasKey $np "from" }}
{{- $errs = append $errs "networkPolicy.from was replaced: set networkPolicy.namespaceSelector and networkPolicy.podSelector (one peer that must match both), and networkPolicy.extraFrom for more peers" }}
{{- end }}
{{- $scraper := include "woox-exporter.scraper" . | fromYaml }}
{{- if not (include "woox-exporter.namesLabels" $scraper.namespaceSelector) }}
{{- $errs = append $errs "networkPolicy.namespaceSelector: name the scraper's namespace (matchLabels or matchExpressions); a selector of no label admits the scraper's labels in every namespace" }}
{{- end }}
{{- if not (include "woox-exporter.namesLabels" $scraper.podSelector) }}
{{- $errs = append $errs "networkPolicy.podSelector: name the scraper's pods (matchLabels or matchExpressions); a selector of no label admits every pod of the scraper's namespace" }}
{{- end }}
{{- range $i, $peer := $np.extraFrom }}
{{- if not (or $peer.ipBlock (include "woox-exporter.namesLabels" $peer.podSelector)) }}
{{- $errs = append $errs (printf "networkPolicy.extraFrom[%d]: name the scraper's pods (podSelector) or addresses (ipBlock); without either it admits every pod of its namespaces" $i) }}
{{- else if and (hasKey $peer "namespaceSelector") (not (include "woox-exporter.namesLabels" $peer.namespaceSelector)) }}
{{- $errs = append $errs (printf "networkPolicy.extraFrom[%d]: an empty namespaceSelector admits the pods it names in every namespace; name the namespace" $i) }}
{{- end }}
{{- end }}
{{- end }}
{{- toYaml $errs }}
{{- end }}

{{/* Non-empty when the label selector names a label. */}}
{{- define "woox-exporter.namesLabels" -}}
{{- if and (kindIs "map" .) (or .matchLabels .matchExpressions) }}true{{ end }}
{{- end }}

{{/*
Non-empty when the string is a key a Secret may hold (Kubernetes'
IsConfigMapKey), and so a file name in the mounted directory.
*/}}
{{- define "woox-exporter.isSecretKey" -}}
{{- if and (regexMatch "^[-._a-zA-Z0-9]+$" .) (le (len .) 253) (not (hasPrefix ".." .)) (ne . ".") }}true{{ end }}
{{- end }}
