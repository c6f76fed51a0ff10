#!/usr/bin/env bash
# Single-node Ceph (mon + 1 bluestore OSD on a sparse file + radosgw) on 127.0.0.1: an S3 server for tests.
# No systemd, no mgr. Needs root and the Debian packages radosgw, ceph-mon, ceph-osd (installed if missing).
#
#   ceph-rgw-up.sh DIR [S3_PORT]   start from scratch in DIR (wiped), default port 7480; returns when S3 answers.
#                                  Prints the endpoint; writes DIR/env (QUARRY_TEST_S3_ENDPOINT, AWS_ACCESS_KEY_ID,
#                                  AWS_SECRET_ACCESS_KEY, AWS_REGION) for `set -a; . DIR/env; set +a`.
#   ceph-rgw-up.sh --stop DIR      stop the daemons and wait for them (same as: kill $(cat DIR/run/*.pid)).
#
# Credentials testkey/testsecret, path-style addressing. On failure it stops what it started and prints the
# last lines of every daemon log. Environment: CEPH_MON_PORT (msgr2, default 3300), CEPH_MON_V1_PORT (6789),
# CEPH_UP_TIMEOUT (seconds per wait, default 120).
# Beyond the recipe in infra.md Appendix A: hard deadlines with log dumps instead of loops that fall through,
# port checks, refusing to wipe a DIR that is not a previous cluster, stopping a previous cluster in DIR,
# and an S3 round trip (create bucket, put, get, delete) before it reports ready.
set -Eeuo pipefail

stop_dir() { # DIR: TERM every daemon with a pid file, wait up to 20 s, then KILL
  local d=$1 pids=() f p alive
  for f in "$d"/run/*.pid; do
    if [ -f "$f" ]; then
      p=$(cat "$f")
      if [ -n "$p" ]; then pids+=("$p"); fi
    fi
  done
  if [ ${#pids[@]} -eq 0 ]; then return 0; fi
  kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 40); do
    alive=0
    for p in "${pids[@]}"; do
      if kill -0 "$p" 2>/dev/null; then alive=1; fi
    done
    if [ $alive = 0 ]; then break; fi
    sleep 0.5
  done
  if [ $alive = 1 ]; then kill -9 "${pids[@]}" 2>/dev/null || true; fi
  rm -f "$d"/run/*.pid # so a later `kill $(cat DIR/run/*.pid)` cannot hit a reused pid
}

if [ "${1:-}" = "--stop" ]; then
  stop_dir "$(realpath -m "${2:?usage: ceph-rgw-up.sh --stop DIR}")"
  exit 0
fi

C=$(realpath -m "${1:?usage: ceph-rgw-up.sh DIR [S3_PORT] | --stop DIR}")
PORT=${2:-7480}
MON_PORT=${CEPH_MON_PORT:-3300}
MON_V1_PORT=${CEPH_MON_V1_PORT:-6789}
TIMEOUT=${CEPH_UP_TIMEOUT:-120}
START=$(date +%s)
ENDPOINT="http://127.0.0.1:$PORT"

log() { echo "ceph-rgw-up: $*" >&2; }
STARTED=0 # set once DIR is ours: only then does a failure print its logs and stop its daemons
fail() {
  trap - ERR
  log "FAILED: $*"
  if [ "$STARTED" = 0 ]; then exit 1; fi
  for f in "$C"/log/*.log; do
    [ -f "$f" ] || continue
    echo "----- last 40 lines of $f" >&2
    tail -n 40 "$f" >&2 || true
  done
  stop_dir "$C"
  exit 1
}
trap 'fail "command failed (line $LINENO): $BASH_COMMAND"' ERR

# wait_for WHAT CMD...: run CMD every 0.5 s until it succeeds, failing after $TIMEOUT seconds.
wait_for() {
  local what=$1 deadline=$(($(date +%s) + TIMEOUT))
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -ge "$deadline" ] && fail "$what not ready after ${TIMEOUT}s"
    sleep 0.5
  done
}
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

[ "$C" != / ] || fail "refusing DIR=/"
if ! command -v radosgw >/dev/null || ! command -v ceph-mon >/dev/null || ! command -v ceph-osd >/dev/null; then
  log "installing radosgw ceph-mon ceph-osd"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends radosgw ceph-mon ceph-osd >/dev/null
fi
for tool in curl ceph ceph-authtool monmaptool radosgw-admin; do
  command -v "$tool" >/dev/null || fail "$tool is not installed"
done

# DIR is wiped: only when it is empty, missing, or an earlier cluster of this script (stopped first).
if [ -d "$C" ] && [ -n "$(ls -A "$C")" ]; then
  [ -f "$C/ceph.conf" ] || fail "$C is not empty and holds no earlier cluster (no ceph.conf); refusing to wipe it"
  stop_dir "$C"
fi
for p in "$PORT" "$MON_PORT" "$MON_V1_PORT"; do
  if port_in_use "$p"; then fail "port $p on 127.0.0.1 is already in use"; fi
done
rm -rf "$C"
mkdir -p "$C"/{run,log,mon,osd/osd.0,rgw}
STARTED=1

FSID=$(cat /proc/sys/kernel/random/uuid)
MON_ADDRS="[v2:127.0.0.1:$MON_PORT,v1:127.0.0.1:$MON_V1_PORT]"
cat >"$C/ceph.conf" <<CONF
[global]
fsid = $FSID
mon host = $MON_ADDRS
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc secure
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail warn = 2
mon data avail crit = 1
osd crush chooseleaf type = 0
osd objectstore = bluestore
bluestore block create = true
bluestore block size = 8589934592
osd memory target = 1073741824
bluestore cache autotune = false
bluestore cache size = 268435456
run dir = $C/run
admin socket = $C/run/\$name.asok
log file = $C/log/\$name.log
pid file = $C/run/\$name.pid
mon data = $C/mon/\$name
osd data = $C/osd/\$name
keyring = $C/keyring
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$PORT
rgw data = $C/rgw
CONF
cd "$C"
CEPH_BIN=$(command -v ceph)
ceph() { timeout 15 "$CEPH_BIN" -c "$C/ceph.conf" "$@"; }

ceph-authtool --create-keyring keyring --gen-key -n mon. --cap mon 'allow *' >/dev/null
monmaptool --create --fsid "$FSID" --addv a "$MON_ADDRS" monmap >/dev/null
ceph-mon -c ceph.conf --mkfs -i a --monmap monmap --keyring keyring >log/mon-mkfs.log 2>&1
ceph-mon -c ceph.conf -i a 2>>log/start.log
wait_for "ceph-mon" ceph mon stat
log "mon up after $(($(date +%s) - START))s"

ceph osd create >/dev/null
ceph-osd -c ceph.conf -i 0 --mkfs >log/osd-mkfs.log 2>&1
ceph-osd -c ceph.conf -i 0 2>>log/start.log
osd_up() { ceph osd stat | grep -q '1 up'; }
wait_for "ceph-osd" osd_up
log "osd up after $(($(date +%s) - START))s"

radosgw -c ceph.conf -n client.rgw.a 2>>log/start.log
wait_for "radosgw on $ENDPOINT" curl -sf -o /dev/null "$ENDPOINT/"
radosgw-admin -c ceph.conf user create --uid=test --display-name=test \
  --access-key=testkey --secret=testsecret >log/user-create.log 2>&1

cat >"$C/env" <<ENV
QUARRY_TEST_S3_ENDPOINT=$ENDPOINT
AWS_ACCESS_KEY_ID=testkey
AWS_SECRET_ACCESS_KEY=testsecret
AWS_REGION=us-east-1
ENV

# An S3 round trip with SigV4 (curl --aws-sigv4), so "ready" means objects can be written and read; the
# first bucket creation also creates radosgw's data pools (about 2 s), which tests would otherwise pay.
s3() {
  curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user testkey:testsecret \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$@"
}
wait_for "S3 bucket creation" s3 -X PUT "$ENDPOINT/ceph-rgw-up-probe"
s3 -X PUT --data-binary "ready" "$ENDPOINT/ceph-rgw-up-probe/probe" >/dev/null || fail "S3 PUT failed"
[ "$(s3 "$ENDPOINT/ceph-rgw-up-probe/probe")" = ready ] || fail "S3 GET did not return what was PUT"
s3 -X DELETE "$ENDPOINT/ceph-rgw-up-probe/probe" >/dev/null || fail "S3 DELETE failed"
s3 -X DELETE "$ENDPOINT/ceph-rgw-up-probe" >/dev/null || fail "S3 bucket DELETE failed"

trap - ERR
log "ready after $(($(date +%s) - START))s"
echo "S3 endpoint $ENDPOINT (testkey/testsecret); env: $C/env; stop: kill \$(cat $C/run/*.pid)"
