{{/* Names, labels and the pieces shared by the gateway, inventory and migration pods. */}}

{{- define "netinv.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "netinv.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "netinv.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "netinv.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: include "netinv.selectorLabels" (list . "gateway") */}}
{{- define "netinv.selectorLabels" -}}
{{- $ctx := index . 0 -}}
app.kubernetes.io/name: {{ include "netinv.name" $ctx }}
app.kubernetes.io/instance: {{ $ctx.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "netinv.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "netinv.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "netinv.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "netinv.secretName" -}}
{{- default (printf "%s-secrets" (include "netinv.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* api.json: .Values.config, with the backends of .Values.upstreams (less their routes and secret). */}}
{{- define "netinv.configJson" -}}
{{- $config := deepCopy .Values.config -}}
{{- $upstreams := dict -}}
{{- range $name, $u := .Values.upstreams -}}
{{- $_ := set $upstreams $name (omit $u "routes" "secret") -}}
{{- end -}}
{{- $_ := set $config "upstreams" $upstreams -}}
{{- /* Identity files mounted from Secrets (netinv.identityMounts): the settings point at them. */ -}}
{{- $ldap := .Values.identity.ldap -}}
{{- if $ldap.secret -}}
{{- $_ := set $config.ldap "bindPasswordFile" "/etc/netinv/identity/ldap/bind-password" -}}
{{- if $ldap.caKey -}}
{{- $_ := set $config.ldap "caFile" "/etc/netinv/identity/ldap/ca.pem" -}}
{{- end -}}
{{- end -}}
{{- range $name, $s := .Values.identity.sso -}}
{{- $providers := (($config.sso | default dict).providers | default dict) -}}
{{- if not (hasKey $providers $name) -}}
{{- fail (printf "identity.sso.%s: no provider %q in config.sso.providers" $name $name) -}}
{{- end -}}
{{- $_ := set (index $providers $name) "clientSecretFile" (printf "/etc/netinv/identity/sso/%s/client-secret" $name) -}}
{{- end -}}
{{- toPrettyJson $config -}}
{{- end -}}

{{/* The gateway's mounts of the identity Secrets (values identity.*). */}}
{{- define "netinv.identityMounts" -}}
{{- if .Values.identity.ldap.secret }}
- name: identity-ldap
  mountPath: /etc/netinv/identity/ldap
  readOnly: true
{{- end }}
{{- range $name, $s := .Values.identity.sso }}
- name: identity-sso-{{ $name }}
  mountPath: /etc/netinv/identity/sso/{{ $name }}
  readOnly: true
{{- end }}
{{- end -}}

{{/* The volumes of the identity Secrets: only the keys the settings name, 0440 as the signing key. */}}
{{- define "netinv.identityVolumes" -}}
{{- $ldap := .Values.identity.ldap -}}
{{- if $ldap.secret }}
- name: identity-ldap
  secret:
    secretName: {{ $ldap.secret }}
    defaultMode: 288
    items:
      - key: {{ $ldap.bindPasswordKey }}
        path: bind-password
      {{- if $ldap.caKey }}
      - key: {{ $ldap.caKey }}
        path: ca.pem
      {{- end }}
{{- end }}
{{- range $name, $s := .Values.identity.sso }}
- name: identity-sso-{{ $name }}
  secret:
    secretName: {{ $s.secret }}
    defaultMode: 288
    items:
      - key: {{ $s.key | default "client-secret" }}
        path: client-secret
{{- end }}
{{- end -}}

{{/* CONFIG_DIR/routes/<name>.json of one backend: include "netinv.routesJson" (list $name $upstream) */}}
{{- define "netinv.routesJson" -}}
{{- $name := index . 0 -}}
{{- $entries := list -}}
{{- range $e := (index . 1).routes -}}
{{- $entries = append $entries (merge (dict "upstream" $name) $e) -}}
{{- end -}}
{{- toPrettyJson $entries -}}
{{- end -}}

{{/* The volume of api.json and the route files (each ConfigMap key projected to its path). */}}
{{- define "netinv.configVolume" -}}
- name: config
  configMap:
    name: {{ include "netinv.fullname" . }}-config
    # 0644: readable by the process, writable by nobody but the kubelet.
    defaultMode: 420
    items:
      - key: api.json
        path: api.json
      {{- range $name, $u := .Values.upstreams }}
      {{- if $u.routes }}
      - key: routes.{{ $name }}.json
        path: routes/{{ $name }}.json
      {{- end }}
      {{- end }}
{{- end -}}

{{- define "netinv.inventoryUrl" -}}
{{- printf "http://%s-inventory:%d" (include "netinv.fullname" .) (int .Values.inventory.port) -}}
{{- end -}}

{{/* Render-time checks of settings that must agree with each other. */}}
{{- define "netinv.validate" -}}
{{- if and (not .Values.inventory.enabled) (not .Values.upstreams) -}}
{{- fail "netinv: with inventory.enabled false the gateway has nothing to forward to: name the backends in upstreams" -}}
{{- end -}}
{{- range $name, $u := .Values.upstreams -}}
{{- if eq $name "inventory" -}}
{{- fail "netinv: upstreams.inventory is netinv's own inventory: tune it under config.upstream, or switch it off with inventory.enabled false and name your backend otherwise" -}}
{{- end -}}
{{- if not $u.routes -}}
{{- fail (printf "netinv: upstreams.%s has no routes: list the endpoints it serves" $name) -}}
{{- end -}}
{{- end -}}
{{- if and (not .Values.secrets.existingSecret) (not .Values.postgresql.bundled.enabled) (not .Values.postgresql.url) -}}
{{- fail "netinv: set postgresql.url (or secrets.existingSecret with a database-url key), or enable postgresql.bundled for evaluation" -}}
{{- end -}}
{{- $grace := div (int .Values.config.server.shutdownGraceMs) 1000 -}}
{{- range $name := list "gateway" "inventory" -}}
{{- $w := index $.Values $name -}}
{{- if and $w.enabled (le (int $w.terminationGracePeriodSeconds) (add (int $w.preStopSleepSeconds) $grace | int)) -}}
{{- fail (printf "netinv: %s.terminationGracePeriodSeconds (%d) must exceed %s.preStopSleepSeconds (%d) + config.server.shutdownGraceMs/1000 (%d)" $name (int $w.terminationGracePeriodSeconds) $name (int $w.preStopSleepSeconds) $grace) -}}
{{- end -}}
{{- end -}}
{{- if lt (int .Values.config.server.adminPort) 1024 -}}
{{- fail "netinv: config.server.adminPort must be a fixed port >= 1024 in Kubernetes (the containers run as non-root)" -}}
{{- end -}}
{{- if eq (int .Values.config.server.adminPort) (int .Values.gateway.port) -}}
{{- fail "netinv: config.server.adminPort must differ from gateway.port" -}}
{{- end -}}
{{- range $name := list "gateway" "inventory" -}}
{{- $w := index $.Values $name -}}
{{- $replicas := $w.replicas -}}
{{- if and (eq $name "gateway") $.Values.gateway.autoscaling.enabled -}}
{{- $replicas = $.Values.gateway.autoscaling.minReplicas -}}
{{- end -}}
{{- if and $w.enabled $w.podDisruptionBudget.enabled (ge (int $w.podDisruptionBudget.minAvailable) (int $replicas)) -}}
{{- fail (printf "netinv: %s.podDisruptionBudget.minAvailable (%d) must be below its replica count (%d), or node drains block" $name (int $w.podDisruptionBudget.minAvailable) (int $replicas)) -}}
{{- end -}}
{{- end -}}
{{- if and .Values.gateway.autoscaling.enabled (gt (int .Values.gateway.autoscaling.minReplicas) (int .Values.gateway.autoscaling.maxReplicas)) -}}
{{- fail "netinv: gateway.autoscaling.minReplicas must not exceed maxReplicas" -}}
{{- end -}}
{{- end -}}

{{/* Environment shared by every netinv container. */}}
{{- define "netinv.commonEnv" -}}
- name: CONFIG_DIR
  value: /etc/netinv/config
- name: DATA_DIR
  value: /var/lib/netinv
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: INTERNAL_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "netinv.secretName" . }}
      key: internal-secret
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "netinv.secretName" . }}
      key: database-url
{{- end -}}

{{/*
Tracing of one service (docs/operations.md, Traces): nothing when tracing.endpoint is empty.
Called with (dict "root" $ "service" "gateway"|"inventory").
*/}}
{{- define "netinv.tracingEnv" -}}
{{- $t := .root.Values.tracing -}}
{{- if $t.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ $t.endpoint | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ printf "netinv-%s" .service | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ $t.sampleRatio | toString | quote }}
{{- if eq .service "gateway" }}
- name: NETINV_TRUST_TRACEPARENT
  value: {{ $t.trustTraceparent | toString | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Volumes shared by every netinv pod: api.json and the writable scratch directories. */}}
{{- define "netinv.commonVolumes" -}}
{{ include "netinv.configVolume" . }}
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.scratch.tmpSizeLimit }}
- name: data
  emptyDir:
    sizeLimit: {{ .Values.scratch.dataSizeLimit }}
{{- end -}}

{{- define "netinv.commonMounts" -}}
- name: config
  mountPath: /etc/netinv/config
  readOnly: true
- name: tmp
  mountPath: /tmp
- name: data
  mountPath: /var/lib/netinv
{{- end -}}

{{/* Pod annotations that roll the pods when the configuration or the secrets change. */}}
{{- define "netinv.rollAnnotations" -}}
{{- if .Values.rollOnConfigChange -}}
checksum/config: {{ list (include "netinv.configJson" .) .Values.upstreams | toJson | sha256sum }}
{{ end -}}
{{- if not .Values.secrets.existingSecret -}}
checksum/secret-values: {{ list .Values.secrets .Values.postgresql.url .Values.redis.url | toJson | sha256sum }}
{{ else if .Values.secrets.previousPublicKeys -}}
checksum/jwt-previous: {{ .Values.secrets.previousPublicKeys | toJson | sha256sum }}
{{ end -}}
{{- end -}}

{{/* nodeSelector, tolerations, affinity, topology spread of a workload's values. */}}
{{- define "netinv.scheduling" -}}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
