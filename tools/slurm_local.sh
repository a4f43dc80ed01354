#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for testing tools/elo_slurm.sh against a real
# scheduler (Debian's slurm-wlm and munge; needs root).
#
#   tools/slurm_local.sh start   install what is missing (apt), configure, start munged,
#                                slurmctld and slurmd; waits until `sinfo` shows the node idle
#   tools/slurm_local.sh stop    stop the daemons this script started (by their process ids)
#
# A cluster that already answers `sinfo` is left alone: start does nothing and stop does not
# touch it. The process ids of the daemons it starts are kept in /run/replab-slurm.
set -euo pipefail

state=/run/replab-slurm
die() { echo "slurm_local.sh: $*" >&2; exit 2; }

cluster_answers() { command -v sinfo >/dev/null && timeout 10 sinfo >/dev/null 2>&1; }

install() {
    command -v slurmctld >/dev/null && command -v munged >/dev/null && return
    command -v apt-get >/dev/null || die "slurm-wlm is not installed and there is no apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
}

# The first line of the configuration this script writes: a slurm.conf without it was written by
# someone else and is never replaced.
marker="# written by replab tools/slurm_local.sh"

configure() {
    local host
    host=$(hostname)
    if [[ -f /etc/slurm/slurm.conf ]] && [[ $(head -n 1 /etc/slurm/slurm.conf) != "$marker" ]]; then
        die "/etc/slurm/slurm.conf exists and was not written by this script: left alone (start that cluster yourself)"
    fi
    mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
    [[ -f /etc/munge/munge.key ]] || mungekey --create
    chown munge:munge /etc/munge/munge.key /run/munge
    chmod 400 /etc/munge/munge.key
    cat > /etc/slurm/slurm.conf <<EOF
$marker
ClusterName=replab
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
ReturnToService=2
NodeName=$host CPUs=$(nproc) RealMemory=4000 State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

# Starts a daemon in the foreground mode it has, in the background, and records its pid.
launch() {
    local name=$1
    shift
    "$@" >"$state/$name.log" 2>&1 &
    echo $! >"$state/$name.pid"
}

start() {
    if cluster_answers; then
        echo "slurm_local.sh: a cluster already answers sinfo; left alone"
        return
    fi
    [[ $(id -u) == 0 ]] || die "starting a cluster needs root"
    install
    configure
    mkdir -p "$state"
    launch munged munged -F -f
    sleep 1
    launch slurmctld slurmctld -D
    sleep 1
    launch slurmd slurmd -D
    for _ in $(seq 1 30); do
        if timeout 5 sinfo -h -o '%t' 2>/dev/null | grep -q idle; then
            sinfo
            return
        fi
        sleep 1
    done
    die "the cluster did not come up (logs in $state)"
}

stop() {
    [[ -d $state ]] || return 0
    for name in slurmd slurmctld munged; do
        if [[ -f $state/$name.pid ]]; then
            pid=$(cat "$state/$name.pid")
            # Only a process that is still that daemon (a stale id may have been reused).
            if [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$name" ]]; then
                kill "$pid" 2>/dev/null || true
            fi
            rm -f "$state/$name.pid"
        fi
    done
}

case ${1:-} in
    start) start ;;
    stop) stop ;;
    *) die "usage: tools/slurm_local.sh start|stop" ;;
esac
