{{/* Chart name, overridable. */}}
{{- define "unigate.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-qualified name; the release name alone when it already contains the chart name. */}}
{{- define "unigate.fullname" -}}
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

{{/* Name of one workload: <fullname>-<service>. Usage: include "unigate.component" (list $ "edge") */}}
{{- define "unigate.component" -}}
{{- $root := index . 0 }}
{{- printf "%s-%s" (include "unigate.fullname" $root) (index . 1) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "unigate.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "unigate.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: unigate
{{- end }}

{{/* Selector labels of one workload. Usage: include "unigate.selectorLabels" (list $ "edge") */}}
{{- define "unigate.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "unigate.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "unigate.image" -}}
{{- /* toString: a tag written unquoted in a values file (2, 1.10) arrives as a number. */}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion | toString) }}
{{- end }}

{{/* The pods' ServiceAccount: the one the chart creates, or the one named, or the namespace's default. */}}
{{- define "unigate.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "unigate.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{- define "unigate.secretName" -}}
{{- include "unigate.fullname" . }}
{{- end }}

{{- define "unigate.envConfigMapName" -}}
{{- printf "%s-env" (include "unigate.fullname" .) }}
{{- end }}

{{- define "unigate.configFileConfigMapName" -}}
{{- printf "%s-config" (include "unigate.fullname" .) }}
{{- end }}

{{/*
The admin token: the value given, else the one already stored in the release's Secret (so upgrades
keep it), else a new random one.
*/}}
{{- define "unigate.adminToken" -}}
{{- if .Values.admin.token }}
{{- if lt (len .Values.admin.token) 16 }}{{ fail "admin.token must be at least 16 characters" }}{{ end }}
{{- .Values.admin.token }}
{{- else }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "unigate.secretName" .) }}
{{- if and $existing $existing.data (hasKey $existing.data "UNIGATE_ADMIN_TOKEN") }}
{{- index $existing.data "UNIGATE_ADMIN_TOKEN" | b64dec }}
{{- else }}
{{- randAlphaNum 40 }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Whether the services get UNIGATE_METRICS_TOKEN: one is given, or the ServiceMonitor needs one.
*/}}
{{- define "unigate.metricsTokenSet" -}}
{{- if or .Values.metrics.token .Values.metrics.existingSecret .Values.metrics.serviceMonitor.enabled }}true{{ end }}
{{- end }}

{{/*
The metrics token the chart's Secret holds: the value given, else the one already stored (so
upgrades keep it, as the admin token's), else a new random one.
*/}}
{{- define "unigate.metricsToken" -}}
{{- if .Values.metrics.token }}
{{- .Values.metrics.token }}
{{- else }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "unigate.secretName" .) }}
{{- if and $existing $existing.data (hasKey $existing.data "UNIGATE_METRICS_TOKEN") }}
{{- index $existing.data "UNIGATE_METRICS_TOKEN" | b64dec }}
{{- else }}
{{- randAlphaNum 40 }}
{{- end }}
{{- end }}
{{- end }}

{{/*
One env var read from a Secret: the user's existingSecret when set, else the chart's Secret.
Usage: include "unigate.secretEnv" (dict "root" $ "name" "DATABASE_URL" "from" .Values.postgres "optional" false)
*/}}
{{- define "unigate.secretEnv" -}}
{{- $from := .from -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      {{- if $from.existingSecret }}
      name: {{ $from.existingSecret }}
      key: {{ $from.existingSecretKey | default .name }}
      {{- else }}
      name: {{ include "unigate.secretName" .root }}
      key: {{ .name }}
      {{- end }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end }}

{{/* "<prefix>.<topic>" when a topic prefix is set (the same rule as KafkaEventBus). */}}
{{- define "unigate.topic" -}}
{{- $root := index . 0 }}
{{- if $root.Values.kafka.topicPrefix }}
{{- printf "%s.%s" $root.Values.kafka.topicPrefix (index . 1) }}
{{- else }}
{{- index . 1 }}
{{- end }}
{{- end }}

{{/* KAFKA_SASL_PASSWORD from the Secret kafka.sasl.existingSecret names (never from values). */}}
{{- define "unigate.kafkaSaslPassword" -}}
{{- $_ := required "kafka.sasl.existingSecret (holding the SASL password) is required with kafka.sasl.mechanism" .Values.kafka.sasl.existingSecret -}}
{{- include "unigate.secretEnv" (dict "root" . "name" "KAFKA_SASL_PASSWORD" "from" .Values.kafka.sasl) }}
{{- end }}
