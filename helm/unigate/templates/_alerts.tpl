{{- /*
Each alert of prometheusrule.yaml: its expression, summary and description, as
"unigate.alert.<name>.expr|summary|description". Each is given a dict: the alert's values (a: its
threshold and for), the release's series selectors (ours: every workload's; api: the edge's API
routes), the workloads' job names, the release's namespace, and root for the chart's helpers.
Summaries and descriptions keep Prometheus' own {{ $labels.x }} / {{ $value }} as text.
*/}}

{{- define "unigate.alert.UnigateTargetDown.expr" -}}
up{ {{- .ours -}} } == 0
{{- end }}
{{- define "unigate.alert.UnigateTargetDown.summary" -}}
Unigate {{ "{{ $labels.job }}" }} pod {{ "{{ $labels.pod }}" }} cannot be scraped
{{- end }}
{{- define "unigate.alert.UnigateTargetDown.description" -}}
Prometheus has not read /metrics of {{ "{{ $labels.pod }}" }} for {{ .a.for }}: the process is down, not ready, or refusing the metrics token.
{{- end }}

{{- define "unigate.alert.UnigateWorkloadMissing.expr" -}}
{{- range $i, $job := .workloads }}
{{- if $i }}
or {{ end }}absent(up{namespace="{{ $.namespace }}", job="{{ $job }}"})
{{- end }}
{{- end }}
{{- define "unigate.alert.UnigateWorkloadMissing.summary" -}}
Unigate {{ "{{ $labels.job }}" }} has no pod to scrape
{{- end }}
{{- define "unigate.alert.UnigateWorkloadMissing.description" -}}
Prometheus has found no target of {{ "{{ $labels.job }}" }} in {{ "{{ $labels.namespace }}" }} for {{ .a.for }}: no pod of the workload exists or is in its Service (scaled to 0, not schedulable, or failing its probes), or the ServiceMonitor no longer selects its Service.
{{- end }}

{{- define "unigate.alert.UnigateServerErrors.expr" -}}
sum(rate(unigate_http_requests_total{ {{- .api }}, status=~"5.."}[5m]))
  / sum(rate(unigate_http_requests_total{ {{- .api -}} }[5m])) > {{ .a.threshold }}
{{- end }}
{{- define "unigate.alert.UnigateServerErrors.summary" -}}
Unigate answers {{ "{{ $value | humanizePercentage }}" }} of API requests with a 5xx
{{- end }}
{{- define "unigate.alert.UnigateServerErrors.description" -}}
More than {{ round (mulf .a.threshold 100) 4 }}% of the edge's API answers are 5xx for {{ .a.for }}. 502/504 follow upstream failures (see UnigateUpstreamFailing and unigate_upstream_requests_total by channel); 503 a service or billing that cannot answer, or request bodies past UNIGATE_BODY_MEMORY_MB (the edge's warn lines say which).
{{- end }}

{{- define "unigate.alert.UnigateUpstreamFailing.expr" -}}
sum by (channel) (rate(unigate_upstream_requests_total{ {{- .ours }}, outcome=~"error|retryable_error"}[5m]))
  / sum by (channel) (rate(unigate_upstream_requests_total{ {{- .ours }}, outcome!~"cancelled|invalid_request"}[5m])) > {{ .a.threshold }}
{{- end }}
{{- define "unigate.alert.UnigateUpstreamFailing.summary" -}}
Upstream channel {{ "{{ $labels.channel }}" }} fails {{ "{{ $value | humanizePercentage }}" }} of its calls
{{- end }}
{{- define "unigate.alert.UnigateUpstreamFailing.description" -}}
More than {{ round (mulf .a.threshold 100) 4 }}% of the calls to channel {{ "{{ $labels.channel }}" }} fail (errors, timeouts, 5xx, 429, 401/403) for {{ .a.for }}; models with another channel fail over to it. Check the vendor's status and the channel's key (the services' warn lines carry upstream_status).
{{- end }}

{{- define "unigate.alert.UnigateUsageNotSettled.expr" -}}
sum(unigate_kafka_consumer_lag{ {{- .ours }}, group="{{ include "unigate.topic" (list .root "billing") }}", topic="{{ include "unigate.topic" (list .root "usage.recorded") }}"}) > {{ int64 .a.threshold }}
{{- end }}
{{- define "unigate.alert.UnigateUsageNotSettled.summary" -}}
{{ "{{ $value }}" }} usage events wait to be settled
{{- end }}
{{- define "unigate.alert.UnigateUsageNotSettled.description" -}}
Billing's consumer group is more than {{ int64 .a.threshold }} usage events behind for {{ .a.for }}: charges reach the ledger late and their holds stay meanwhile, so balances read lower than they are. Check billing's pods, their logs and Postgres.
{{- end }}

{{- define "unigate.alert.UnigateEventLoopBlocked.expr" -}}
max by (job, pod) (nodejs_eventloop_lag_p99_seconds{ {{- .ours -}} }) > {{ .a.threshold }}
{{- end }}
{{- define "unigate.alert.UnigateEventLoopBlocked.summary" -}}
Unigate pod {{ "{{ $labels.pod }}" }} stalls its event loop
{{- end }}
{{- define "unigate.alert.UnigateEventLoopBlocked.description" -}}
The 99th percentile of {{ "{{ $labels.pod }}" }}'s event-loop delay is over {{ .a.threshold }} s for {{ .a.for }}: every request it serves waits that long. Look at its CPU limit and throttling, then at its heap (a process near its limit collects all the time).
{{- end }}

{{- define "unigate.alert.UnigateVideoTasksFailing.expr" -}}
sum by (model) (rate(unigate_video_tasks_ended_total{ {{- .ours }}, status="failed"}[30m]))
  / sum by (model) (rate(unigate_video_tasks_ended_total{ {{- .ours -}} }[30m])) > {{ .a.threshold }}
{{- end }}
{{- define "unigate.alert.UnigateVideoTasksFailing.summary" -}}
{{ "{{ $value | humanizePercentage }}" }} of {{ "{{ $labels.model }}" }}'s video tasks fail
{{- end }}
{{- define "unigate.alert.UnigateVideoTasksFailing.description" -}}
More than {{ round (mulf .a.threshold 100) 4 }}% of the video tasks of {{ "{{ $labels.model }}" }} that ended in the last 30 minutes failed, for {{ .a.for }}: the vendor fails its renders or they pass their deadline (nothing is charged for them). The task records carry the upstream's error; the video service's warn lines the polls that failed.
{{- end }}

{{- define "unigate.alert.UnigateWebhooksGivenUp.expr" -}}
sum(increase(unigate_webhook_deliveries_total{ {{- .ours }}, outcome="gave_up"}[1h])) > {{ int64 .a.threshold }}
{{- end }}
{{- define "unigate.alert.UnigateWebhooksGivenUp.summary" -}}
Video webhooks given up in the last hour
{{- end }}
{{- define "unigate.alert.UnigateWebhooksGivenUp.description" -}}
Over the last hour more than {{ int64 .a.threshold }} video tasks' webhooks were given up, their receivers having refused or missed every attempt (spread over more than a day by default): their owners get those records only by polling. The video service's warn lines (webhook given up) name the tasks; video.webhook_attempts holds each attempt's status or error.
{{- end }}
