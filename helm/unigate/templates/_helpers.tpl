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
A value of the chart's Secret under `key`: `value` when given, else the one already stored in the
release's Secret (so upgrades keep it), else a new random one.
Usage: include "unigate.keptSecret" (dict "root" $ "key" "UNIGATE_ADMIN_TOKEN" "value" .Values.admin.token)
*/}}
{{- define "unigate.keptSecret" -}}
{{- if .value }}
{{- .value }}
{{- else }}
{{- $existing := lookup "v1" "Secret" .root.Release.Namespace (include "unigate.secretName" .root) }}
{{- if and $existing $existing.data (hasKey $existing.data .key) }}
{{- index $existing.data .key | b64dec }}
{{- else }}
{{- randAlphaNum 40 }}
{{- end }}
{{- end }}
{{- end }}

{{/* The admin token, kept or generated (unigate.keptSecret); one given must have 16 characters. */}}
{{- define "unigate.adminToken" -}}
{{- if and .Values.admin.token (lt (len .Values.admin.token) 16) }}{{ fail "admin.token must be at least 16 characters" }}{{ end }}
{{- include "unigate.keptSecret" (dict "root" . "key" "UNIGATE_ADMIN_TOKEN" "value" .Values.admin.token) }}
{{- end }}

{{/*
Whether the services get UNIGATE_METRICS_TOKEN: one is given, or the ServiceMonitor needs one.
*/}}
{{- define "unigate.metricsTokenSet" -}}
{{- if or .Values.metrics.token .Values.metrics.existingSecret .Values.metrics.serviceMonitor.enabled }}true{{ end }}
{{- end }}

{{/*
Where a credential is: the user's existingSecret (under existingSecretKey, default `key`) when set,
else the chart's Secret under `key`. The name/key pair of a secretKeyRef, or of a ServiceMonitor's
credentials.
Usage: include "unigate.secretKeyRef" (dict "root" $ "key" "UNIGATE_METRICS_TOKEN" "from" .Values.metrics)
*/}}
{{- define "unigate.secretKeyRef" -}}
{{- if .from.existingSecret -}}
name: {{ .from.existingSecret }}
key: {{ .from.existingSecretKey | default .key }}
{{- else -}}
name: {{ include "unigate.secretName" .root }}
key: {{ .key }}
{{- end }}
{{- end }}

{{/*
One env var read from a Secret (unigate.secretKeyRef); `key` defaults to the variable's name.
Usage: include "unigate.secretEnv" (dict "root" $ "name" "DATABASE_URL" "from" .Values.postgres "optional" false)
*/}}
{{- define "unigate.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      {{- include "unigate.secretKeyRef" (dict "root" .root "key" (.key | default .name) "from" .from) | nindent 6 }}
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
