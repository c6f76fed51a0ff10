{{/*
Names, labels and the pieces every role's pod shares. Role names are the app folders' names
(apps/<role>), the template folders' names and the `app.kubernetes.io/component` label.
*/}}

{{- define "quarry.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "quarry.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "quarry.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every resource. */}}
{{- define "quarry.labels" -}}
helm.sh/chart: {{ include "quarry.chart" . }}
{{ include "quarry.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: quarry
{{- with .Values.global.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "quarry.selectorLabels" -}}
app.kubernetes.io/name: {{ include "quarry.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of one role's resources: (dict "ctx" $ "role" "ingest"). */}}
{{- define "quarry.roleLabels" -}}
{{ include "quarry.labels" .ctx }}
app.kubernetes.io/component: {{ .role }}
{{- end }}

{{- define "quarry.roleSelectorLabels" -}}
{{ include "quarry.selectorLabels" .ctx }}
app.kubernetes.io/component: {{ .role }}
{{- end }}

{{/* Name of one role's resources: (dict "ctx" $ "role" "ingest"). */}}
{{- define "quarry.roleName" -}}
{{- printf "%s-%s" (include "quarry.fullname" .ctx) .role }}
{{- end }}

{{/* "true" when the topology runs the role: (dict "ctx" $ "role" "ingest"). */}}
{{- define "quarry.runs" -}}
{{- $roles := dict
  "Standalone" (list "standalone")
  "Region" (list "ingest" "query" "compactor" "gateway")
  "Main" (list "management" "query" "gateway")
  "MainAndRegion" (list "ingest" "query" "compactor" "management" "gateway") -}}
{{- if has .role (get $roles .ctx.Values.topology) }}true{{ end }}
{{- end }}

{{- define "quarry.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "quarry.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "quarry.image" -}}
{{- $image := .Values.global.image }}
{{- printf "%s:%s" $image.repository (default .Chart.AppVersion $image.tag) }}
{{- end }}

{{/* Base URL of one role's Service inside the cluster: (dict "ctx" $ "role" "query"). */}}
{{- define "quarry.serviceUrl" -}}
{{- printf "http://%s.%s.svc:8080" (include "quarry.roleName" .) .ctx.Release.Namespace }}
{{- end }}

{{/* Pod annotations of one role: config checksum, global and role annotations. */}}
{{- define "quarry.podAnnotations" -}}
checksum/config: {{ include (print .ctx.Template.BasePath "/configmap.yaml") .ctx | sha256sum }}
{{- with .ctx.Values.global.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- with .values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Pod-level fields every role shares: (dict "ctx" $ "role" "ingest" "values" .Values.ingest). */}}
{{- define "quarry.podCommon" -}}
serviceAccountName: {{ include "quarry.serviceAccountName" .ctx }}
automountServiceAccountToken: false
enableServiceLinks: false
{{- with .ctx.Values.global.imagePullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ if kindIs "string" . }}{{ . }}{{ else }}{{ .name }}{{ end }}
  {{- end }}
{{- end }}
securityContext:
  {{- toYaml .ctx.Values.global.podSecurityContext | nindent 2 }}
terminationGracePeriodSeconds: {{ .values.terminationGracePeriodSeconds }}
{{- with .values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .values.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- range .values.topologySpreadConstraints }}
  {{- $constraint := . }}
  {{- if not .labelSelector }}
  {{- $constraint = merge (dict "labelSelector" (dict "matchLabels" (include "quarry.roleSelectorLabels" $ | fromYaml))) . }}
  {{- end }}
  - {{- toYaml $constraint | nindent 4 }}
  {{- end }}
{{- end }}
{{- end }}

{{/* Container fields every role shares: image, security, port, probes, resources. */}}
{{- define "quarry.containerCommon" -}}
image: {{ include "quarry.image" .ctx | quote }}
imagePullPolicy: {{ .ctx.Values.global.image.pullPolicy }}
securityContext:
  {{- toYaml .ctx.Values.global.containerSecurityContext | nindent 2 }}
ports:
  - name: http
    containerPort: 8080
    protocol: TCP
  {{- if include "quarry.servesOtlpGrpc" . }}
  - name: otlp-grpc
    containerPort: {{ .ctx.Values.otlpGrpc.port }}
    protocol: TCP
  {{- end }}
startupProbe:
  httpGet:
    path: /healthz
    port: http
  periodSeconds: 2
  failureThreshold: 60
livenessProbe:
  httpGet:
    path: /healthz
    port: http
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
readinessProbe:
  httpGet:
    path: /readyz
    port: http
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 2
resources:
  {{- toYaml .values.resources | nindent 2 }}
{{- end }}

{{/*
Environment of a Quarry node (every role but the gateway). Plain settings come from the release's
ConfigMap (envFrom); credentials only from existing Secrets; identity from the downward API.
*/}}
{{- define "quarry.nodeEnv" -}}
{{- $v := .ctx.Values -}}
- name: PORT
  value: "8080"
- name: QUARRY_DATA_DIR
  value: /data
- name: POD_IP
  valueFrom:
    fieldRef:
      fieldPath: status.podIP
- name: QUARRY_NODE_ID
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
{{- if ne .role "standalone" }}
- name: QUARRY_ADVERTISE_URL
  value: "http://$(POD_IP):8080"
{{- end }}
{{- if include "quarry.servesOtlpGrpc" . }}
- name: QUARRY_OTLP_GRPC_PORT
  value: {{ .ctx.Values.otlpGrpc.port | quote }}
{{- end }}
{{- if $v.metastore.existingSecret }}
- name: QUARRY_METASTORE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $v.metastore.existingSecret }}
      key: {{ $v.metastore.key }}
{{- end }}
{{- if ne .role "standalone" }}
{{- if $v.objectStorage.existingSecret }}
- name: AWS_ACCESS_KEY_ID
  valueFrom:
    secretKeyRef:
      name: {{ $v.objectStorage.existingSecret }}
      key: {{ $v.objectStorage.accessKeyIdKey }}
- name: AWS_SECRET_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $v.objectStorage.existingSecret }}
      key: {{ $v.objectStorage.secretAccessKeyKey }}
{{- end }}
{{- if $v.kafka.sasl.mechanism }}
- name: QUARRY_KAFKA_SASL_USERNAME
  valueFrom:
    secretKeyRef:
      name: {{ $v.kafka.sasl.existingSecret }}
      key: {{ $v.kafka.sasl.usernameKey }}
- name: QUARRY_KAFKA_SASL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $v.kafka.sasl.existingSecret }}
      key: {{ $v.kafka.sasl.passwordKey }}
{{- end }}
{{- if $v.cluster.existingSecret }}
- name: QUARRY_CLUSTER_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $v.cluster.existingSecret }}
      key: {{ $v.cluster.key }}
{{- end }}
{{- end }}
{{- if eq .role "query" }}
- name: QUARRY_OBJECT_CACHE_BYTES
  value: {{ .values.objectCache.bytes | int64 | toString | quote }}
{{- end }}
{{- if and $v.bootstrap.existingSecret (has .role (list "management" "standalone")) }}
- name: QUARRY_BOOTSTRAP_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ $v.bootstrap.existingSecret }}
      key: {{ $v.bootstrap.tokenKey }}
{{- end }}
{{- range $name, $value := .values.config }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- with $v.global.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- with .values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "quarry.nodeEnvFrom" -}}
- configMapRef:
    name: {{ include "quarry.fullname" .ctx }}-config
{{- with .ctx.Values.global.extraEnvFrom }}
{{ toYaml . }}
{{- end }}
{{- with .values.extraEnvFrom }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Volume mounts of a Quarry node: /data, /tmp and the Kafka CA when one is given. */}}
{{- define "quarry.nodeVolumeMounts" -}}
- name: data
  mountPath: /data
- name: tmp
  mountPath: /tmp
{{- if and (ne .role "standalone") .ctx.Values.kafka.tls.enabled .ctx.Values.kafka.tls.caSecret }}
- name: kafka-ca
  mountPath: /etc/quarry/kafka-ca
  readOnly: true
{{- end }}
{{- end }}

{{- define "quarry.nodeVolumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: 256Mi
{{- if ne .role "standalone" }}
- name: data
  emptyDir:
    {{- if and (eq .role "query") .values.objectCache.sizeLimit }}
    sizeLimit: {{ .values.objectCache.sizeLimit }}
    {{- else }}
    sizeLimit: 1Gi
    {{- end }}
{{- if and .ctx.Values.kafka.tls.enabled .ctx.Values.kafka.tls.caSecret }}
- name: kafka-ca
  secret:
    secretName: {{ .ctx.Values.kafka.tls.caSecret }}
    items:
      - key: {{ .ctx.Values.kafka.tls.caKey }}
        path: ca.crt
{{- end }}
{{- end }}
{{- end }}

{{/*
The Deployment of one cluster role: (dict "ctx" $ "role" "ingest" "values" .Values.ingest). Runs
`node apps/<role>/dist/main.js` under the image's tini entrypoint (args, not command).
*/}}
{{- define "quarry.roleDeployment" -}}
{{- $autoscaling := and .values.autoscaling .values.autoscaling.enabled -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "quarry.roleName" . }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "quarry.roleLabels" . | nindent 4 }}
spec:
  {{- if not $autoscaling }}
  replicas: {{ .values.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "quarry.roleSelectorLabels" . | nindent 6 }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  template:
    metadata:
      labels:
        {{- include "quarry.roleLabels" . | nindent 8 }}
      annotations:
        {{- include "quarry.podAnnotations" . | nindent 8 }}
    spec:
      {{- include "quarry.podCommon" . | nindent 6 }}
      containers:
        - name: {{ .role }}
          args: ["node", "--initial-old-space-size=128", "apps/{{ .role }}/dist/main.js"]
          {{- include "quarry.containerCommon" . | nindent 10 }}
          env:
            {{- include "quarry.nodeEnv" . | nindent 12 }}
          envFrom:
            {{- include "quarry.nodeEnvFrom" . | nindent 12 }}
          volumeMounts:
            {{- include "quarry.nodeVolumeMounts" . | nindent 12 }}
      volumes:
        {{- include "quarry.nodeVolumes" . | nindent 8 }}
{{- end }}

{{/* A ClusterIP Service of one role on port 8080 (named http): (dict "ctx" $ "role" "ingest"). */}}
{{- define "quarry.roleService" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "quarry.roleName" . }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "quarry.roleLabels" . | nindent 4 }}
  {{- with .annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ default "ClusterIP" .type }}
  {{- if .headless }}
  clusterIP: None
  {{- end }}
  selector:
    {{- include "quarry.roleSelectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: {{ default 8080 .port }}
      targetPort: http
      protocol: TCP
    {{- if and (not .headless) (include "quarry.servesOtlpGrpc" .) }}
    - name: otlp-grpc
      port: {{ .ctx.Values.otlpGrpc.port }}
      targetPort: otlp-grpc
      protocol: TCP
    {{- end }}
{{- end }}

{{/* "true" when this role's pods serve OTLP/gRPC: otlpGrpc.enabled and a role that ingests. */}}
{{- define "quarry.servesOtlpGrpc" -}}
{{- if and .ctx.Values.otlpGrpc.enabled (has .role (list "ingest" "standalone")) }}true{{- end }}
{{- end }}

{{/* The PodDisruptionBudget of one role, when more than one pod runs. */}}
{{- define "quarry.rolePdb" -}}
{{- $pods := .values.replicas }}
{{- if and .values.autoscaling .values.autoscaling.enabled }}
{{- $pods = .values.autoscaling.minReplicas }}
{{- end }}
{{- if and .values.pdb.enabled (gt (int $pods) 1) }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "quarry.roleName" . }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "quarry.roleLabels" . | nindent 4 }}
spec:
  maxUnavailable: {{ .values.pdb.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "quarry.roleSelectorLabels" . | nindent 6 }}
{{- end }}
{{- end }}

{{/* The HorizontalPodAutoscaler of one role (ingest, query), when enabled. */}}
{{- define "quarry.roleHpa" -}}
{{- if .values.autoscaling.enabled }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "quarry.roleName" . }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "quarry.roleLabels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "quarry.roleName" . }}
  minReplicas: {{ .values.autoscaling.minReplicas }}
  maxReplicas: {{ .values.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ .values.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
{{- end }}
