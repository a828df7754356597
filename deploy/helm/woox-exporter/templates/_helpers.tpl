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
{{- if and .Values.secrets.existingSecret .Values.secrets.create }}
{{- fail "secrets: set existingSecret or create, not both" }}
{{- end }}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "woox-exporter.fullname" .)) }}
{{- end }}

{{/*
The --config.file the exporter reads: each account's api_secret_file is the
key secretKey (default: its name) of the Secret. Fails at render time on
what the exporter would refuse at start, so a bad value never reaches a pod.
*/}}
{{- define "woox-exporter.accountsFile" -}}
{{- if and .Values.accounts (not (or .Values.secrets.existingSecret .Values.secrets.create)) }}
{{- fail "accounts need their API secrets: set secrets.existingSecret (a Secret you create, one key per account) or secrets.create" }}
{{- end -}}
accounts:
{{- range $i, $a := .Values.accounts }}
{{- $name := required (printf "accounts[%d]: name is required" $i) $a.name | toString }}
{{- $key := required (printf "accounts[%d] (%s): api_key is required" $i $name) $a.api_key | toString }}
{{- if or $a.api_secret $a.api_secret_file $a.api_secret_env }}
{{- fail (printf "accounts[%d] (%s): give the API secret through secrets.existingSecret or secrets.create, not api_secret, api_secret_file or api_secret_env" $i $name) }}
{{- end }}
{{- $secretKey := $a.secretKey | default $name | toString }}
{{- if and $.Values.secrets.create (not (hasKey $.Values.secrets.create $secretKey)) }}
{{- fail (printf "accounts[%d] (%s): secrets.create has no key %q" $i $name $secretKey) }}
{{- end }}
  - name: {{ $name | toJson }}
    api_key: {{ $key | toJson }}
    api_secret_file: {{ printf "%s/%s" (include "woox-exporter.secretsDir" $) $secretKey | toJson }}
{{- end }}
{{- end }}
