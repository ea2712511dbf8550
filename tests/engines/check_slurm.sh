#!/bin/sh
# The slurm engine on a real single-node Slurm (make check-slurm): starts munged (as the
# munge user), slurmctld and slurmd without systemd, with a slurm.conf for this host in a
# temporary folder (SLURM_CONF), runs tests/engines/check_engines.sh with the real sbatch
# (the 20-run sweep through local, parallel and Slurm must give the same sweep.csv), and
# stops the daemons.  Needs root (slurmd starts jobs as their user).  Says why and exits
# 0 when it cannot start Slurm here; any other failure exits 1.
#   tests/engines/check_slurm.sh CLOTH        (from the project folder)
#   tests/engines/check_slurm.sh CLOTH COMMAND [ARG]...
# The second form runs COMMAND with Slurm up (SLURM_CONF set) instead of the check, e.g.
# experiments/engine_times.sh to time a sweep through every engine.
set -eu
cloth=$1
shift
skip() { echo "check-slurm: SKIPPED: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "it must run as root to start slurmd"
for p in munged slurmctld slurmd sbatch squeue sinfo runuser; do
    command -v $p >/dev/null || skip "$p is missing (make deps-slurm)"
done
tmp=$(mktemp -d)
chmod 755 "$tmp"
host=$(hostname -s)
pids=""
stop() {
    for f in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
    done
    sleep 1
    [ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"
}
trap stop EXIT

# munge: its own key, socket and files, owned by the munge user, who runs it
mkdir -p "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chown -R munge: "$tmp/munge"
chmod 711 "$tmp/munge"            # munged wants its socket's folder searchable by all
chmod 400 "$tmp/munge/munge.key"
sock=$tmp/munge/munge.socket
runuser -u munge -- munged --key-file="$tmp/munge/munge.key" --socket="$sock" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/munged.seed" || skip "munged did not start"

mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=clothtest
SlurmctldHost=$host
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -c || skip "slurmctld did not start: $(tail -3 "$tmp/slurmctld.log" 2>/dev/null)"
slurmd || skip "slurmd did not start: $(tail -3 "$tmp/slurmd.log" 2>/dev/null)"
for i in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    [ "$i" -lt 60 ] || skip "the node did not come up: $(tail -3 "$tmp/slurmctld.log")"
    sleep 1
done
echo "check-slurm: single-node Slurm up ($(sinfo -h -o '%P %D %C %T'))"
if [ $# -gt 0 ]; then
    "$@"
else
    REAL_SLURM=1 tests/engines/check_engines.sh "$cloth"
fi
