{{/* The chart's name, at most 63 characters (a DNS label). */}}
{{- define "woox-exporter.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The release's full name, used for every object: the release name alone when
it already holds the chart's name. Pod names append -<ordinal>, the shard
--shard.from-hostname reads, so any name works.
*/}}
{{- define "woox-exporter.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "woox-exporter.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "woox-exporter.labels" -}}
helm.sh/chart: {{ include "woox-exporter.chart" . }}
{{ include "woox-exporter.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: woox-exporter
{{- end }}

{{/* The pods' labels that selectors use: a StatefulSet's selector cannot change. */}}
{{- define "woox-exporter.selectorLabels" -}}
app.kubernetes.io/name: {{ include "woox-exporter.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: exporter
{{- end }}

{{- define "woox-exporter.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "woox-exporter.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The image: the tag defaults to v<appVersion>, a digest pins it. */}}
{{- define "woox-exporter.image" -}}
{{- $ref := printf "%s:%s" .Values.image.repository (default (printf "v%s" .Chart.AppVersion) .Values.image.tag) }}
{{- if .Values.image.digest }}
{{- $ref = printf "%s@%s" $ref .Values.image.digest }}
{{- end }}
{{- $ref }}
{{- end }}

{{/* Where the secrets are mounted, and the Secret holding them. */}}
{{- define "woox-exporter.secretsDir" -}}/etc/woox_exporter/secrets{{- end }}

{{- define "woox-exporter.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "woox-exporter.fullname" .)) }}
{{- end }}

{{/* Where the web configuration's Secret is mounted, and the file read. */}}
{{- define "woox-exporter.webConfigDir" -}}/etc/woox_exporter/web{{- end }}

{{/*
The --config.file the exporter reads: each account's api_secret_file is the
key secretKey (default: its name) of the Secret. woox-exporter.validate
(_validate.tpl) has refused what the exporter would refuse at start.
*/}}
{{- define "woox-exporter.accountsFile" -}}
accounts:
{{- range .Values.accounts }}
  - name: {{ .name | toString | toJson }}
    api_key: {{ .api_key | toString | toJson }}
    api_secret_file: {{ printf "%s/%s" (include "woox-exporter.secretsDir" $) (.secretKey | default .name | toString) | toJson }}
{{- end }}
{{- end }}

{{/*
The probes' check: GET the path over the scheme the web configuration
serves, or, behind basic auth (which the kubelet cannot answer), a TCP
connection to the port.
*/}}
{{- define "woox-exporter.probe" -}}
{{- $web := .root.Values.webConfig }}
{{- if and $web.existingSecret $web.basicAuth }}
tcpSocket:
  port: http
{{- else }}
httpGet:
  path: {{ .path }}
  port: http
  {{- if and $web.existingSecret $web.tls }}
  scheme: HTTPS
  {{- end }}
{{- end }}
{{- end }}

{{/*
The NetworkPolicy's scraper, as {namespaceSelector, podSelector}: the
values', each defaulting to kube-prometheus-stack's Prometheus (namespace
monitoring, pods labelled app.kubernetes.io/name=prometheus). Defaults
here, not in values.yaml, where Helm would merge a user's labels into them.
*/}}
{{- define "woox-exporter.scraper" -}}
{{- $np := .Values.networkPolicy }}
namespaceSelector:
  {{- toYaml ($np.namespaceSelector | default (dict "matchLabels" (dict "kubernetes.io/metadata.name" "monitoring"))) | nindent 2 }}
podSelector:
  {{- toYaml ($np.podSelector | default (dict "matchLabels" (dict "app.kubernetes.io/name" "prometheus"))) | nindent 2 }}
{{- end }}
