#!/usr/bin/env bash
exec "$(dirname "$0")/../libs/local-cluster/native/ceph-rgw-up.sh" "$@"
